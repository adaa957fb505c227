package io.arcon.runner.state;

import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;

/**
 * Cheap equality and hash of {@link StateNamespace}s within one transform (one window coder).
 *
 * <p>Runners-core makes a new window namespace for every state or timer access, and its {@code
 * equals} and {@code hashCode} compare the window's structural value, which encodes the window
 * (even the global one) each time. Within one transform the window coder is fixed, so two window
 * namespaces are equal exactly when their windows are, and two window-and-trigger namespaces when
 * their windows and trigger indexes are; other namespaces fall back to their own equality.
 *
 * <p>The global namespace has a constant hash here: runners-core's {@code hashCode} of it boxes its
 * enum constant into a new array for {@code Objects.hash} on every call, and a merging GroupByKey
 * (whose windows cell lives in the global namespace) spent a tenth of its time there.
 */
final class NamespaceEquality {
  private NamespaceEquality() {}

  private static final int GLOBAL_HASH = 0x676c6f62;

  static boolean same(StateNamespace a, StateNamespace b) {
    if (a == b) {
      return true;
    }
    if (a instanceof StateNamespaces.GlobalNamespace) {
      return b instanceof StateNamespaces.GlobalNamespace;
    }
    if (a instanceof StateNamespaces.WindowNamespace<?> wa
        && b instanceof StateNamespaces.WindowNamespace<?> wb) {
      return wa.getWindow().equals(wb.getWindow());
    }
    if (a instanceof StateNamespaces.WindowAndTriggerNamespace<?> ta
        && b instanceof StateNamespaces.WindowAndTriggerNamespace<?> tb) {
      return ta.getTriggerIndex() == tb.getTriggerIndex() && ta.getWindow().equals(tb.getWindow());
    }
    return a != null
        && !(a instanceof StateNamespaces.WindowNamespace<?>)
        && !(a instanceof StateNamespaces.WindowAndTriggerNamespace<?>)
        && a.equals(b);
  }

  static int hash(StateNamespace namespace) {
    if (namespace instanceof StateNamespaces.GlobalNamespace) {
      return GLOBAL_HASH;
    }
    if (namespace instanceof StateNamespaces.WindowNamespace<?> w) {
      return WindowHash.of(w.getWindow());
    }
    if (namespace instanceof StateNamespaces.WindowAndTriggerNamespace<?> t) {
      return 31 * WindowHash.of(t.getWindow()) + t.getTriggerIndex() + 1;
    }
    return namespace.hashCode();
  }
}
