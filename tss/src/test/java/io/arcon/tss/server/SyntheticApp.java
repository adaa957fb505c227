package io.arcon.tss.server;

import io.arcon.tss.agent.StateSource;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.KeyLiterals;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.StateKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An app whose states are per-key version chains of (event time, value) kept in memory: the state
 * of a key at T is its last update with event time &lt; T; a null value clears the key. This is the
 * contract a real runner implements with its backends.
 */
final class SyntheticApp implements StateSource {
  private final List<StateDescriptor> states = new ArrayList<>();

  /** state -> key -> event time -> value (null = cleared). */
  private final Map<String, Map<Object, TreeMap<Instant, Long>>> chains = new ConcurrentHashMap<>();

  /** What the agent last passed to {@link #statesRead}; null before. */
  private volatile Set<String> statesRead;

  @Override
  public void statesRead(Set<String> stateNames) {
    statesRead = stateNames;
  }

  /** The states some TSS reads, as the control plane last told through the agent; null before. */
  Set<String> lastStatesRead() {
    return statesRead;
  }

  /** A counter keyed by user name. */
  SyntheticApp withCounter(String stateName) {
    return withCounter(stateName, FieldType.STRING);
  }

  SyntheticApp withCounter(String stateName, FieldType keyType) {
    return withCounter(stateName, keyType, Consistency.EXACT);
  }

  SyntheticApp withCounter(String stateName, FieldType keyType, Consistency consistency) {
    states.add(
        new StateDescriptor(
            stateName,
            "Count_" + stateName,
            stateName,
            StateKind.VALUE,
            new StateSchema(keyType, FieldType.INT64),
            "memory",
            consistency));
    chains.put(stateName, new ConcurrentHashMap<>());
    return this;
  }

  /**
   * Records that {@code key}'s state became {@code value} (null: cleared) at event time {@code at}.
   */
  synchronized SyntheticApp update(String state, Object key, Instant at, Long value) {
    chains.get(state).computeIfAbsent(key, k -> new TreeMap<>()).put(at, value);
    return this;
  }

  @Override
  public List<StateDescriptor> states() {
    return List.copyOf(states);
  }

  @Override
  public synchronized Iterable<StateRow> rows(
      String stateName, Instant versionTime, Object keyFilter) {
    List<StateRow> rows = new ArrayList<>();
    Map<Object, TreeMap<Instant, Long>> chain = chains.get(stateName);
    if (chain == null) {
      throw new IllegalArgumentException("no state " + stateName);
    }
    for (Map.Entry<Object, TreeMap<Instant, Long>> e : new TreeMap<>(chain).entrySet()) {
      if (keyFilter != null && !KeyLiterals.matches(keyFilter, e.getKey())) {
        continue;
      }
      Map.Entry<Instant, Long> last = e.getValue().lowerEntry(versionTime);
      if (last != null && last.getValue() != null) {
        rows.add(new StateRow(e.getKey(), null, last.getValue(), last.getKey()));
      }
    }
    return rows;
  }
}
