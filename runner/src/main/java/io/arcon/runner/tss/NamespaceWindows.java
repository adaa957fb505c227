package io.arcon.runner.tss;

import io.arcon.tss.model.WindowBounds;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;

/**
 * The window bounds of the cells' namespace strings ({@code StateNamespace.stringKey()}) during one
 * read, each string decoded once.
 *
 * <p>Decoding a namespace parses it and runs the window coder over base64; almost every cell of a
 * read has the same few namespaces (one for the global window, one per live window), so the read
 * remembers the last one and a bounded map of the others. Not thread-safe: one per reading thread.
 */
final class NamespaceWindows {
  /** Distinct namespaces remembered; past it the map starts over (its memory stays bounded). */
  static final int MAX_REMEMBERED = 4096;

  private final Coder<? extends BoundedWindow> windowCoder;
  private final Map<String, Optional<WindowBounds>> remembered = new HashMap<>();
  private String lastNamespace;
  private WindowBounds lastBounds;

  NamespaceWindows(Coder<? extends BoundedWindow> windowCoder) {
    this.windowCoder = windowCoder;
  }

  /** The bounds of the window of {@code namespace}, or null for the global window. */
  WindowBounds boundsOf(String namespace) {
    if (!namespace.equals(lastNamespace)) {
      Optional<WindowBounds> bounds = remembered.get(namespace);
      if (bounds == null) {
        if (remembered.size() >= MAX_REMEMBERED) {
          remembered.clear();
        }
        bounds = Optional.ofNullable(decode(namespace));
        remembered.put(namespace, bounds);
      }
      lastNamespace = namespace;
      lastBounds = bounds.orElse(null);
    }
    return lastBounds;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private WindowBounds decode(String namespace) {
    StateNamespace ns = StateNamespaces.fromString(namespace, (Coder) windowCoder);
    if (ns instanceof StateNamespaces.WindowNamespace<?> w) {
      BoundedWindow window = w.getWindow();
      if (window instanceof GlobalWindow) {
        return null;
      }
      if (window instanceof IntervalWindow iw) {
        return new WindowBounds(
            Instant.ofEpochMilli(iw.start().getMillis()),
            Instant.ofEpochMilli(iw.end().getMillis()));
      }
      // Other windows have no bounds of their own; the end is the window's max timestamp.
      return new WindowBounds(
          Instant.ofEpochMilli(window.maxTimestamp().getMillis()),
          Instant.ofEpochMilli(window.maxTimestamp().getMillis()));
    }
    return null; // global namespace
  }
}
