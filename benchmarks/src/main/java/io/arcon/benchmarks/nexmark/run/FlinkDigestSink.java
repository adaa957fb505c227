package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** The Flink sink of every query: the same digest as {@link BeamDigestSink}, in accumulators. */
final class FlinkDigestSink extends ProcessFunction<NexmarkResult, Void> {
  private final LongCounter records = new LongCounter();
  private final LongCounter low = new LongCounter();
  private final LongCounter high = new LongCounter();
  private final LongCounter countedBids = new LongCounter();
  private final String latencyRunId;
  private final String collectRunId;

  FlinkDigestSink(String latencyRunId, String collectRunId) {
    this.latencyRunId = latencyRunId;
    this.collectRunId = collectRunId;
  }

  @Override
  public void open(OpenContext openContext) {
    getRuntimeContext().addAccumulator(DigestNames.RECORDS, records);
    getRuntimeContext().addAccumulator(DigestNames.LOW, low);
    getRuntimeContext().addAccumulator(DigestNames.HIGH, high);
    getRuntimeContext().addAccumulator(DigestNames.COUNTED_BIDS, countedBids);
  }

  @Override
  public void processElement(NexmarkResult result, Context ctx, Collector<Void> out) {
    long fingerprint = result.fingerprint();
    records.add(1);
    low.add(DigestNames.low(fingerprint));
    high.add(DigestNames.high(fingerprint));
    countedBids.add(result.countedBids());
    if (latencyRunId != null) {
      Latency.recordOutput(latencyRunId, ctx.timestamp());
    }
    if (collectRunId != null) {
      CollectedOutputs.add(collectRunId, result);
    }
  }
}
