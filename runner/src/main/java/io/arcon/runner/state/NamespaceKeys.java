package io.arcon.runner.state;

import org.apache.beam.runners.core.StateNamespace;

/**
 * {@link StateNamespace#stringKey()} of recent namespaces, in a small direct-mapped cache.
 *
 * <p>A window namespace's string key encodes the window with its coder and then in Base64, and
 * runners-core asks for state and timers of the same few windows many times per element: a merging
 * window's element touches its own window, the session it joins and the merged result, each for
 * half a dozen state ids and two timers. Computed each time, the string keys were a fifth of a
 * session-window GroupByKey's time. Within one transform (one window coder) equal namespaces have
 * equal keys ({@link NamespaceEquality}), so a slot hit is exact. Not thread-safe; one per owner.
 *
 * <p>4096 slots: a session's state window keeps its namespace while the session grows, but sessions
 * of many keys interleave (Nexmark Q11's bidders), and with 64 slots most lookups missed.
 */
final class NamespaceKeys {
  private static final int SLOTS = 4096; // a power of two

  private final StateNamespace[] namespaces = new StateNamespace[SLOTS];
  private final String[] keys = new String[SLOTS];

  String of(StateNamespace namespace) {
    int hash = NamespaceEquality.hash(namespace);
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    StateNamespace cached = namespaces[slot];
    if (cached != null && NamespaceEquality.same(namespace, cached)) {
      return keys[slot];
    }
    String key = namespace.stringKey();
    namespaces[slot] = namespace;
    keys[slot] = key;
    return key;
  }
}
