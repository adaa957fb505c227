package io.arcon.runner.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;

/**
 * The bytes of {@link StateNamespace#stringKey()} (ASCII, so its UTF-8 encoding) of recent
 * namespaces in a small direct-mapped cache, computed on a miss without runners-core's slow path.
 *
 * <p>A window namespace's string key encodes the window with its coder and then in Base64, and
 * runners-core asks for state and timers of the same few windows many times per element: a merging
 * window's element touches its own window, the session it joins and the merged result, each for
 * half a dozen state ids and two timers. Within one transform (one window coder) equal namespaces
 * have equal keys ({@link NamespaceEquality}), so a slot hit is exact. Not thread-safe; one per
 * owner.
 *
 * <p>16,384 slots: a session's state window keeps its namespace while the session grows, but
 * sessions of many keys interleave (Nexmark Q11's bidders, 10k keys' sessions). A timer's window is
 * the session itself, new with every element it grows by, so many lookups still miss, and a miss
 * must be cheap too: runners-core's {@code stringKey} encodes through {@code CoderUtils}, whose
 * stream wraps a synchronized {@code ByteArrayOutputStream} that the window coder's varints write
 * one byte at a time (a sixth of a session GroupByKey's time). {@link #encode} writes the same
 * bytes with the same coder, in the same (outer) context, into a plain buffer.
 */
final class NamespaceKeys {
  private static final int SLOTS = 16384; // a power of two
  private static final Base64.Encoder BASE64_URL = Base64.getUrlEncoder().withoutPadding();

  private final StateNamespace[] namespaces = new StateNamespace[SLOTS];

  /**
   * Each slot's namespace's hash, compared before the namespace itself: with many keys' windows a
   * slot's occupant is usually another, long untouched window, and reading it is a cache miss.
   */
  private final int[] hashes = new int[SLOTS];

  private final byte[][] keys = new byte[SLOTS][];
  private final OrderedBytes windowBytes = new OrderedBytes(64);

  /** The UTF-8 bytes of {@code namespace.stringKey()}; the caller must not modify them. */
  byte[] of(StateNamespace namespace) {
    int hash = NamespaceEquality.hash(namespace);
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    StateNamespace cached = namespaces[slot];
    if (hashes[slot] == hash && cached != null && NamespaceEquality.same(namespace, cached)) {
      return keys[slot];
    }
    byte[] key = encode(namespace);
    namespaces[slot] = namespace;
    hashes[slot] = hash;
    keys[slot] = key;
    return key;
  }

  /**
   * {@code /base64url(window)/} for a window namespace, {@code /base64url(window)/TRIGGER/} (base
   * 36, upper case) for a window-and-trigger namespace, as runners-core spells them; any other
   * namespace's own string key.
   */
  private byte[] encode(StateNamespace namespace) {
    if (namespace instanceof StateNamespaces.WindowNamespace<?> w) {
      return withSlashes(encodedWindow(w.getWindowCoder(), w.getWindow()), null);
    }
    if (namespace instanceof StateNamespaces.WindowAndTriggerNamespace<?> t) {
      return withSlashes(
          encodedWindow(t.getWindowCoder(), t.getWindow()),
          Integer.toString(t.getTriggerIndex(), 36).toUpperCase());
    }
    return namespace.stringKey().getBytes(StandardCharsets.UTF_8);
  }

  @SuppressWarnings({"unchecked", "deprecation"}) // Context.OUTER: what CoderUtils encodes with
  private <W extends BoundedWindow> byte[] encodedWindow(Coder<W> coder, BoundedWindow window) {
    windowBytes.reset();
    try {
      coder.encode((W) window, windowBytes, Coder.Context.OUTER);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not encode window " + window + " with its coder " + coder, e);
    }
    return windowBytes.toByteArray();
  }

  private static byte[] withSlashes(byte[] window, String trigger) {
    byte[] base64 = BASE64_URL.encode(window);
    int length = base64.length + 2 + (trigger == null ? 0 : trigger.length() + 1);
    byte[] key = new byte[length];
    key[0] = '/';
    System.arraycopy(base64, 0, key, 1, base64.length);
    int position = 1 + base64.length;
    key[position++] = '/';
    if (trigger != null) {
      for (int i = 0; i < trigger.length(); i++) {
        key[position++] = (byte) trigger.charAt(i);
      }
      key[position] = '/';
    }
    return key;
  }
}
