package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.joda.time.Instant;

/**
 * The Beam sink of every query: adds each record to the run's digest counters and, in a streaming
 * run, records its latency; writes nothing, so the sink costs little and the same on every runner.
 */
final class BeamDigestSink extends DoFn<NexmarkResult, Void> {
  private final Counter records = Metrics.counter(DigestNames.NAMESPACE, DigestNames.RECORDS);
  private final Counter low = Metrics.counter(DigestNames.NAMESPACE, DigestNames.LOW);
  private final Counter high = Metrics.counter(DigestNames.NAMESPACE, DigestNames.HIGH);
  private final Counter countedBids =
      Metrics.counter(DigestNames.NAMESPACE, DigestNames.COUNTED_BIDS);

  /** The streaming run whose latency is recorded, or null. */
  private final String latencyRunId;

  /** The run whose records are collected ({@link CollectedOutputs}), or null. */
  private final String collectRunId;

  BeamDigestSink(String latencyRunId, String collectRunId) {
    this.latencyRunId = latencyRunId;
    this.collectRunId = collectRunId;
  }

  @ProcessElement
  public void process(@Element NexmarkResult result, @Timestamp Instant timestamp) {
    long fingerprint = result.fingerprint();
    records.inc();
    low.inc(DigestNames.low(fingerprint));
    high.inc(DigestNames.high(fingerprint));
    long bids = result.countedBids();
    if (bids != 0) {
      countedBids.inc(bids);
    }
    if (latencyRunId != null) {
      Latency.recordOutput(latencyRunId, timestamp.getMillis());
    }
    if (collectRunId != null) {
      CollectedOutputs.add(collectRunId, result);
    }
  }
}
