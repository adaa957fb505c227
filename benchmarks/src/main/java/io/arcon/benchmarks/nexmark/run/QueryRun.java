package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import java.util.List;

/**
 * One finished run of a query on a runner.
 *
 * @param seconds from submitting the job to its end, start and shutdown included
 * @param digest the output's digest
 * @param latency a streaming run's latency (null in batch, and for queries without it)
 * @param outputs the output records, if the run was asked to collect them, else null
 */
public record QueryRun(
    double seconds, Digest digest, Latency.Summary latency, List<NexmarkResult> outputs) {

  /**
   * The run, with the latency and the outputs its sinks recorded under these run ids (either may be
   * null: not recorded); both registrations are closed.
   */
  static QueryRun finish(double seconds, Digest digest, String latencyRunId, String collectRunId) {
    return new QueryRun(
        seconds,
        digest,
        latencyRunId == null ? null : Latency.close(latencyRunId),
        collectRunId == null ? null : CollectedOutputs.close(collectRunId));
  }

  /** Closes the run ids' registrations (after a failed run; closing twice does nothing). */
  static void release(String latencyRunId, String collectRunId) {
    if (latencyRunId != null) {
      Latency.close(latencyRunId);
    }
    if (collectRunId != null) {
      CollectedOutputs.close(collectRunId);
    }
  }
}
