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
    double seconds, Digest digest, Latency.Summary latency, List<NexmarkResult> outputs) {}
