package io.arcon.runner.faults;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVM-wide plan of exceptions thrown inside the pipeline's DoFns (they are serialized, so the
 * plan cannot live in them): each planned (site, slot) throws once, the first time the DoFn at that
 * site processes the event of that slot; its replay after the restart then passes.
 */
final class DoFnFaults {
  /** Where a fault is thrown: a stateless DoFn next to the source, or the stateful DoFn. */
  enum Site {
    INJECT_FAULTS,
    RUNNING_TOTALS
  }

  /** Thrown by a planned fault. */
  static final class InjectedFault extends RuntimeException {
    InjectedFault(Site site, long slot) {
      super("Injected fault in " + site + " at slot " + slot);
    }
  }

  private static final Map<Long, Site> PLANNED = new ConcurrentHashMap<>();
  private static final AtomicInteger THROWN = new AtomicInteger();

  private DoFnFaults() {}

  /** Replaces the plan: the event of each slot fails once at its site. */
  static void plan(Map<Long, Site> faults) {
    PLANNED.clear();
    PLANNED.putAll(faults);
    THROWN.set(0);
  }

  /** Clears the plan: no DoFn fails. */
  static void clear() {
    plan(Map.of());
  }

  /** Faults thrown since the last {@link #plan}. */
  static int thrown() {
    return THROWN.get();
  }

  /** Planned faults not thrown yet. */
  static int pending() {
    return PLANNED.size();
  }

  /** Called by the DoFn at {@code site} for each event: throws when the plan says so. */
  static void at(Site site, long slot) {
    if (PLANNED.isEmpty()) {
      return;
    }
    // remove(key, value) is atomic: of two instances racing on a replay, one throws.
    if (PLANNED.remove(slot, site)) {
      THROWN.incrementAndGet();
      throw new InjectedFault(site, slot);
    }
  }
}
