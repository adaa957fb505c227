package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.query.NexmarkQuery;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Runs a query's Flink job once on a fresh local MiniCluster in this JVM and reads its digest.
 *
 * <p>Set up as a Flink user tuning a job would: streaming execution (as Beam runners execute both
 * bounded and unbounded inputs), the heap ("hashmap") state backend without checkpoints, object
 * reuse on (every record type is immutable) and generic types off, so a Kryo fallback fails the job
 * instead of slowing it down.
 */
final class FlinkQueryRun {
  private FlinkQueryRun() {}

  @SuppressWarnings("unchecked")
  static QueryRun run(String name, NexmarkQuery query, RunSettings settings, boolean collect)
      throws Exception {
    Configuration config = new Configuration();
    config.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
    config.set(StateBackendOptions.STATE_BACKEND, "hashmap");
    config.set(PipelineOptions.OBJECT_REUSE, true);
    config.set(PipelineOptions.GENERIC_TYPES, false);
    boolean streaming = settings.mode() == Mode.STREAMING;
    String latencyRunId = streaming ? Latency.open(settings.generator().baseTimeMillis()) : null;
    String collectRunId = collect ? CollectedOutputs.open() : null;
    try {
      long start = System.nanoTime();
      StreamExecutionEnvironment env =
          StreamExecutionEnvironment.createLocalEnvironment(settings.parallelism(), config);
      DataStream<Event> events =
          streaming
              ? FlinkSources.paced(
                  env, settings.eventGenerator(), settings.events(), settings.rate(), latencyRunId)
              : FlinkSources.bounded(env, settings.eventGenerator(), settings.events());
      ((DataStream<NexmarkResult>) query.flink(events, settings.queries()))
          .process(
              new FlinkDigestSink(query.latencyMeasurable() ? latencyRunId : null, collectRunId))
          .returns(Types.VOID)
          .name("Digest")
          .sinkTo(new DiscardingSink<>())
          .name("Discard");
      JobExecutionResult result = env.execute("Nexmark " + name + " (" + settings.mode() + ")");
      double seconds = (System.nanoTime() - start) / 1e9;
      Digest digest =
          new Digest(
              accumulator(result, DigestNames.RECORDS),
              accumulator(result, DigestNames.LOW),
              accumulator(result, DigestNames.HIGH),
              accumulator(result, DigestNames.COUNTED_BIDS));
      return QueryRun.finish(seconds, digest, latencyRunId, collectRunId);
    } finally {
      QueryRun.release(latencyRunId, collectRunId);
    }
  }

  private static long accumulator(JobExecutionResult result, String name) {
    Long value = result.getAccumulatorResult(name);
    return value == null ? 0 : value;
  }
}
