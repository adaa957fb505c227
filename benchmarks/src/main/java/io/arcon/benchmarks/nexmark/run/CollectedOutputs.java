package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The output records of a run, kept when asked for (to compare them record by record with an
 * independent computation); sinks of every runner add to it through the run id, in this JVM.
 */
final class CollectedOutputs {
  private static final Map<String, Queue<NexmarkResult>> RUNS = new ConcurrentHashMap<>();

  private CollectedOutputs() {}

  static String open() {
    String runId = UUID.randomUUID().toString();
    RUNS.put(runId, new ConcurrentLinkedQueue<>());
    return runId;
  }

  static void add(String runId, NexmarkResult record) {
    Queue<NexmarkResult> records = RUNS.get(runId);
    if (records == null) {
      throw new IllegalStateException(
          "No collecting run "
              + runId
              + " in this JVM: a run's outputs can only be collected in"
              + " the process that started it");
    }
    records.add(record);
  }

  /** Unregisters the run and returns its records, in no particular order. */
  static List<NexmarkResult> close(String runId) {
    Queue<NexmarkResult> records = RUNS.remove(runId);
    return records == null ? List.of() : List.copyOf(records);
  }
}
