package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
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
      assertEquals(namespace.stringKey(), keys.of(random.nextBoolean() ? namespace : again));
    }
  }
}
