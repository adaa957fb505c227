package io.arcon.benchmarks.pipeline;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * The native-Flink anchor of the keyed-count benchmark: {@link KeyedCountPipeline} written as a
 * Flink DataStream job, run on a local MiniCluster in this JVM, so the numbers sit next to
 * ArconRunner's and DirectRunner's from the same process.
 *
 * <p>It is the job a Flink user writes for this pipeline, not Beam's FlinkRunner: {@code
 * fromSequence -> x * 31 + 7 -> keyBy(x % keys)} into a {@link KeyedProcessFunction} that keeps
 * each key's count in {@link ValueState} (heap "hashmap" backend, no checkpoints) and emits it from
 * an end-of-input event-time timer, which is what Beam's {@code Count.perKey()} in the global
 * window does. In {@link RuntimeExecutionMode#STREAMING} every element goes through keyed state; in
 * {@link RuntimeExecutionMode#BATCH} Flink sorts each key's input and fires the timer at the key's
 * end. Like the Beam pipeline's sink, the last step counts keys and elements (in Flink
 * accumulators) so every run is verified.
 */
final class KeyedCountFlinkJob {

  private static final String KEYS = KeyedCountPipeline.KEYS;
  private static final String COUNTED = KeyedCountPipeline.COUNTED;

  private KeyedCountFlinkJob() {}

  /** Runs the job once on a fresh local MiniCluster; times the whole run as a user sees it. */
  static KeyedCountBenchmark.Run run(
      RuntimeExecutionMode mode, int parallelism, long elements, int keys) throws Exception {
    return run(mode, "hashmap", parallelism, elements, keys);
  }

  /**
   * Runs the job with Flink's state backend {@code backend} ({@code hashmap} or {@code rocksdb}:
   * the latter needs {@code flink-statebackend-rocksdb} on the class path, which {@link
   * PerElementStateBenchmark} gives a child JVM of its own).
   */
  static KeyedCountBenchmark.Run run(
      RuntimeExecutionMode mode, String backend, int parallelism, long elements, long keys)
      throws Exception {
    return run(mode, backend, parallelism, elements, keys, null);
  }

  /**
   * As {@link #run(RuntimeExecutionMode, String, int, long, long)}, with the MiniCluster's managed
   * memory (what Flink's RocksDB backend uses for its block cache and memtables) set to {@code
   * managedMemory} (e.g. {@code 640m}); null keeps Flink's local default (128 MB).
   */
  static KeyedCountBenchmark.Run run(
      RuntimeExecutionMode mode,
      String backend,
      int parallelism,
      long elements,
      long keys,
      String managedMemory)
      throws Exception {
    if (elements <= 0) {
      throw new IllegalArgumentException("--elements must be positive, got " + elements);
    }
    if (keys <= 0) {
      throw new IllegalArgumentException("--keys must be positive, got " + keys);
    }
    Configuration config = new Configuration();
    config.set(ExecutionOptions.RUNTIME_MODE, mode);
    config.set(StateBackendOptions.STATE_BACKEND, backend);
    if (managedMemory != null) {
      config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse(managedMemory));
    }
    long start = System.nanoTime();
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(parallelism, config);
    env.fromSequence(0, elements - 1)
        .name("Sequence")
        .map(x -> x * 31 + 7)
        .returns(Types.LONG)
        .name("Scramble")
        .keyBy(x -> x % keys, Types.LONG)
        .process(new CountPerKey())
        .name("CountPerKey")
        .process(new CountingSink())
        .name("Count keys and elements")
        .sinkTo(new DiscardingSink<>())
        .name("Discard");
    JobExecutionResult result = env.execute("KeyedCount (" + mode + ", " + backend + ")");
    double seconds = (System.nanoTime() - start) / 1e9;
    return new KeyedCountBenchmark.Run(
        seconds, accumulator(result, KEYS), accumulator(result, COUNTED));
  }

  private static long accumulator(JobExecutionResult result, String name) {
    Long value = result.getAccumulatorResult(name);
    return value == null ? 0 : value;
  }

  /**
   * Counts per key in keyed state and emits {@code (key, count)} once the input is complete, from a
   * timer at the end of time (the watermark reaches it only when every source has finished).
   */
  static final class CountPerKey extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>> {
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext openContext) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out)
        throws Exception {
      Long current = count.value();
      if (current == null) {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        current = 0L;
      }
      count.update(current + 1);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Tuple2<Long, Long>> out)
        throws Exception {
      out.collect(Tuple2.of(ctx.getCurrentKey(), count.value()));
      count.clear();
    }
  }

  /** The sink's bookkeeping: keys seen and the sum of their counts, as Flink accumulators. */
  static final class CountingSink extends ProcessFunction<Tuple2<Long, Long>, Void> {
    private final LongCounter keys = new LongCounter();
    private final LongCounter counted = new LongCounter();

    @Override
    public void open(OpenContext openContext) {
      getRuntimeContext().addAccumulator(KEYS, keys);
      getRuntimeContext().addAccumulator(COUNTED, counted);
    }

    @Override
    public void processElement(Tuple2<Long, Long> keyCount, Context ctx, Collector<Void> out) {
      keys.add(1);
      counted.add(keyCount.f1);
    }
  }
}
