package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class NamespaceEqualityTest {

  /** Every kind of namespace, each window with several trigger indexes. */
  private static List<StateNamespace> namespaces() {
    List<StateNamespace> all = new ArrayList<>();
    all.add(StateNamespaces.global());
    for (int i = 0; i < 20; i++) {
      IntervalWindow window =
          new IntervalWindow(new Instant(i * 1_000L), new Instant(i * 1_000L + (i % 2 + 1) * 500));
      all.add(StateNamespaces.window(IntervalWindow.getCoder(), window));
      for (int trigger = 0; trigger < 3; trigger++) {
        all.add(StateNamespaces.windowAndTrigger(IntervalWindow.getCoder(), window, trigger));
      }
    }
    return all;
  }

  @Test
  void agreesWithBeamsOwnEqualityAndHashesEqualNamespacesAlike() {
    List<StateNamespace> all = namespaces();
    for (StateNamespace a : all) {
      // An equal namespace made anew, as runners-core makes them per access.
      StateNamespace again =
          a.stringKey().equals(StateNamespaces.global().stringKey())
              ? StateNamespaces.global()
              : StateNamespaces.fromString(a.stringKey(), IntervalWindow.getCoder());
      assertEquals(true, NamespaceEquality.same(a, again), a + " made again");
      assertEquals(NamespaceEquality.hash(a), NamespaceEquality.hash(again), a + " hash");
      for (StateNamespace b : all) {
        assertEquals(a.equals(b), NamespaceEquality.same(a, b), a + " against " + b);
      }
    }
  }
}
