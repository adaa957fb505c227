package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class NamespaceMapTest {
  /** A namespace made anew for each use, as runners-core makes them. */
  private static StateNamespace window(long start) {
    return StateNamespaces.window(
        IntervalWindow.getCoder(), new IntervalWindow(new Instant(start), new Instant(start + 10)));
  }

  @Test
  void answersLikeAHashMapWhileGrowingAndAfterClearing() {
    NamespaceMap<Integer> map = new NamespaceMap<>();
    Map<Long, Integer> model = new HashMap<>();
    Random random = new Random(7);
    for (int op = 0; op < 200_000; op++) {
      long start = random.nextInt(5_000);
      StateNamespace namespace = window(start);
      int hash = NamespaceEquality.hash(namespace);
      if (random.nextInt(3) == 0) {
        map.put(namespace, hash, op);
        model.put(start, op);
      } else {
        assertEquals(model.get(start), map.get(namespace, hash), "op " + op);
      }
      if (op == 100_000) {
        map.clear();
        model.clear();
        assertNull(map.get(namespace, hash));
      }
      assertEquals(model.size(), map.size(), "op " + op);
    }
    StateNamespace global = StateNamespaces.global();
    map.put(global, NamespaceEquality.hash(global), -1);
    assertEquals(
        -1, map.get(StateNamespaces.global(), NamespaceEquality.hash(StateNamespaces.global())));
  }

  @Test
  void namespacesWhoseHashesCollideStayApart() {
    NamespaceMap<String> map = new NamespaceMap<>();
    // One hash for all: every lookup walks the run and tells them apart by equality.
    for (long start = 0; start < 3_000; start++) {
      map.put(window(start), 42, "w" + start);
    }
    for (long start = 0; start < 3_000; start++) {
      assertEquals("w" + start, map.get(window(start), 42));
    }
    assertNull(map.get(window(3_000), 42));
    assertEquals(3_000, map.size());
  }
}
