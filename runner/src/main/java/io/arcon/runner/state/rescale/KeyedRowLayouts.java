package io.arcon.runner.state.rescale;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.BackendTimerStore;
import io.arcon.runner.state.OrderedBytes;
import io.arcon.runner.state.history.ChainLayout;
import io.arcon.state.StateEntry;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the encoded key of a row is, for every table a keyed operator keeps in its backend. The
 * writers document the layouts ({@code lp(x)} = 4-byte big-endian length then the bytes, {@code ts}
 * = 8 bytes):
 *
 * <ul>
 *   <li>{@code beam_state}, {@code beam_holds} ({@link BackendStateInternals}), {@code beam_timers}
 *       ({@link BackendTimerStore}): row key {@code lp(key) ...}
 *   <li>{@code beam_hold_index}: {@code ts(hold) lp(key) ...}; {@code beam_timer_holds}: {@code
 *       ts(output) lp(key) ...}; {@code beam_timer_index}: {@code domain(1) ts lp(key) ...}
 *   <li>{@code beam_state_history} ({@link ChainLayout}): {@code lp(state id) lp(key) ...}
 *   <li>{@code time_sorted_input} ({@code BackendTimeSortedInput}): row key {@code ts seq}, value
 *       {@code lp(key) element}
 * </ul>
 *
 * <p>The key is the key coder's encoding of the key, which is exactly what the keyed edge routes by
 * ({@code KeyedElement.keyBytes}, computed with the same coder): operators store state and timers
 * under the bytes {@code setCurrentKey} gave them, so {@code KeyGroups.instanceForKey} of a row's
 * key is the instance the row's elements arrive at.
 *
 * <p>Tables {@value #HISTORY_META_TABLE} and {@value InstanceProgress#TABLE} are not per key;
 * {@link KeyGroupRestore} merges them.
 */
public final class KeyedRowLayouts {
  /** {@code BackendTimeSortedInput.TABLE} (package-private there). */
  public static final String TIME_SORTED_INPUT_TABLE = "time_sorted_input";

  public static final String HISTORY_META_TABLE = ChainLayout.META_TABLE;

  /** Runs of history rows of many keys each: {@link KeyGroupRestore} splits them by key. */
  public static final String HISTORY_RUNS_TABLE = ChainLayout.RUNS_TABLE;

  /** How to find a row's encoded key. */
  @FunctionalInterface
  interface KeyOf {
    byte[] keyOf(StateEntry row);
  }

  private static final Map<String, KeyOf> PER_KEY =
      Map.of(
          BackendStateInternals.STATE_TABLE,
          row -> lengthPrefixedAt(row.key(), 0),
          BackendStateInternals.HOLD_TABLE,
          row -> lengthPrefixedAt(row.key(), 0),
          BackendStateInternals.HOLD_INDEX_TABLE,
          row -> lengthPrefixedAt(row.key(), 8),
          BackendTimerStore.TIMERS_TABLE,
          row -> lengthPrefixedAt(row.key(), 0),
          BackendTimerStore.TIMER_INDEX_TABLE,
          row -> lengthPrefixedAt(row.key(), 9),
          BackendTimerStore.HOLD_INDEX_TABLE,
          row -> lengthPrefixedAt(row.key(), 8),
          ChainLayout.HISTORY_TABLE,
          row -> lengthPrefixedAt(row.key(), OrderedBytes.skipLengthPrefixed(row.key(), 0)),
          TIME_SORTED_INPUT_TABLE,
          row -> lengthPrefixedAt(row.value(), 0));

  private KeyedRowLayouts() {}

  /** The key extractor of a per-key table, or null when the table is not one. */
  static KeyOf perKey(String table) {
    return PER_KEY.get(table);
  }

  /** Every table whose layout is known, per key or not. */
  public static Set<String> knownTables() {
    Set<String> all = new TreeSet<>(PER_KEY.keySet());
    all.add(HISTORY_META_TABLE);
    all.add(HISTORY_RUNS_TABLE);
    all.add(InstanceProgress.TABLE);
    return all;
  }

  private static byte[] lengthPrefixedAt(byte[] bytes, int position) {
    return OrderedBytes.readLengthPrefixed(bytes, position);
  }
}
