package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class NamespaceKeysTest {

  @Test
  void answersEveryNamespacesOwnStringKeyWhateverWasCachedBefore() {
    List<StateNamespace> namespaces = new ArrayList<>();
    namespaces.add(StateNamespaces.global());
    for (int i = 0; i < 300; i++) {
      IntervalWindow window =
          new IntervalWindow(new Instant(i * 1_000L), new Instant(i * 1_000L + 30_000));
      namespaces.add(StateNamespaces.window(IntervalWindow.getCoder(), window));
      namespaces.add(StateNamespaces.windowAndTrigger(IntervalWindow.getCoder(), window, i % 3));
    }
    NamespaceKeys keys = new NamespaceKeys();
    Random random = new Random(7);
    // More namespaces than slots, in random order and again and again: hits, misses and evictions.
    for (int i = 0; i < 20_000; i++) {
      StateNamespace namespace = namespaces.get(random.nextInt(namespaces.size()));
      // An equal namespace made anew, as runners-core makes them per access.
      StateNamespace again =
          StateNamespaces.fromString(namespace.stringKey(), IntervalWindow.getCoder());
      assertArrayEquals(
          utf8(namespace.stringKey()), keys.of(random.nextBoolean() ? namespace : again));
    }
  }

  @Test
  void spellsEveryKindOfWindowAndTriggerIndexAsRunnersCoreDoes() {
    Random random = new Random(11);
    List<StateNamespace> namespaces = new ArrayList<>();
    namespaces.add(StateNamespaces.window(GlobalWindow.Coder.INSTANCE, GlobalWindow.INSTANCE));
    namespaces.add(
        StateNamespaces.windowAndTrigger(GlobalWindow.Coder.INSTANCE, GlobalWindow.INSTANCE, 0));
    for (int i = 0; i < 2_000; i++) {
      // Bounds across the whole range: varints of 1 to 10 bytes, negative starts, Base64 lengths
      // with and without padding.
      long start = random.nextLong() >> random.nextInt(64);
      long end = start + (random.nextLong() >>> (1 + random.nextInt(63)));
      if (end < start || end > BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis()) {
        continue;
      }
      IntervalWindow window = new IntervalWindow(new Instant(start), new Instant(end));
      namespaces.add(StateNamespaces.window(IntervalWindow.getCoder(), window));
      namespaces.add(
          StateNamespaces.windowAndTrigger(IntervalWindow.getCoder(), window, random.nextInt(80)));
      // A window coder whose bytes depend on the context: CoderUtils encodes in the outer one.
      NamedWindow named = new NamedWindow("w" + "é/+".repeat(random.nextInt(4)) + i);
      namespaces.add(StateNamespaces.window(NamedWindow.CODER, named));
      namespaces.add(StateNamespaces.windowAndTrigger(NamedWindow.CODER, named, i % 40));
    }
    NamespaceKeys keys = new NamespaceKeys();
    for (StateNamespace namespace : namespaces) {
      assertArrayEquals(utf8(namespace.stringKey()), keys.of(namespace), namespace::toString);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A window named by a string, encoded without a length prefix when outermost. */
  private static final class NamedWindow extends BoundedWindow {
    static final Coder<NamedWindow> CODER =
        new CustomCoder<>() {
          @Override
          public void encode(NamedWindow value, OutputStream out) throws IOException {
            StringUtf8Coder.of().encode(value.name, out);
          }

          @Override
          @SuppressWarnings("deprecation")
          public void encode(NamedWindow value, OutputStream out, Context context)
              throws IOException {
            StringUtf8Coder.of().encode(value.name, out, context);
          }

          @Override
          public NamedWindow decode(InputStream in) throws IOException {
            return new NamedWindow(StringUtf8Coder.of().decode(in));
          }

          @Override
          @SuppressWarnings("deprecation")
          public NamedWindow decode(InputStream in, Context context) throws IOException {
            return new NamedWindow(StringUtf8Coder.of().decode(in, context));
          }
        };

    private final String name;

    NamedWindow(String name) {
      this.name = name;
    }

    @Override
    public Instant maxTimestamp() {
      return BoundedWindow.TIMESTAMP_MAX_VALUE;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof NamedWindow other && other.name.equals(name);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name);
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
