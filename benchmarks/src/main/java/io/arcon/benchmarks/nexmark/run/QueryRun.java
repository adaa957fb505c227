package io.arcon.benchmarks.nexmark.run;

/**
 * One finished run of a query on a runner.
 *
 * @param seconds from submitting the job to its end, start and shutdown included
 * @param digest the output's digest
 * @param latency a streaming run's latency (null in batch, and for queries without it)
 */
public record QueryRun(double seconds, Digest digest, Latency.Summary latency) {}
