package io.arcon.runner.faults;

import java.util.Map;
import java.util.TreeMap;

/**
 * The faults that really happened in this JVM, per backend and kind. Each test records its count
 * here; every record and the running totals go to stdout, for the CI log.
 */
final class FaultLedger {
  private static final Map<String, Map<String, Integer>> BY_BACKEND = new TreeMap<>();

  private FaultLedger() {}

  /** Records {@code count} faults of {@code kind} on {@code backend}, with what else to log. */
  static synchronized void record(String kind, String backend, int count, String details) {
    BY_BACKEND.computeIfAbsent(backend, b -> new TreeMap<>()).merge(kind, count, Integer::sum);
    System.out.printf("FAULTS kind=%s backend=%s injected=%d %s%n", kind, backend, count, details);
  }

  /** Prints the totals so far, per backend and kind. */
  static synchronized void printTotals() {
    for (Map.Entry<String, Map<String, Integer>> backend : BY_BACKEND.entrySet()) {
      int total = backend.getValue().values().stream().mapToInt(Integer::intValue).sum();
      System.out.printf(
          "FAULTS TOTAL backend=%s total=%d by kind=%s%n",
          backend.getKey(), total, backend.getValue());
    }
  }
}
