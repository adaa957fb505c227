package io.arcon.benchmarks.state;

import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The keyed-count pipeline with its state on each engine: {@code GenerateSequence -> (i % keys, 1)
 * -> stateful count} where the count is a ValueState read and written for every element (no
 * pre-aggregation, so every element costs one state get and one update in the engine) and emitted
 * by an end-of-window timer. Each engine first runs a warm-up, then a measured run; every run is
 * verified (keys and summed counts from Beam counters) before its throughput is printed as a
 * markdown table row.
 *
 * <p>{@code java ... io.arcon.benchmarks.state.KeyedCountPerEngine --elements=5000000 --keys=100000
 * --engines=heap,rocksdb,lmdb --parallelism=2}
 */
public final class KeyedCountPerEngine {
  private static final String NAMESPACE = KeyedCountPerEngine.class.getName();

  private KeyedCountPerEngine() {}

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions {
    @Description("Elements of each measured run")
    @Default.Long(5_000_000)
    long getElements();

    void setElements(long value);

    @Description("Elements of the warm-up run before each engine's measured run")
    @Default.Long(500_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys (i % keys)")
    @Default.Long(100_000)
    long getKeys();

    void setKeys(long value);

    @Description("Comma-separated engines to measure")
    @Default.String("heap,rocksdb,lmdb")
    String getEngines();

    void setEngines(String value);
  }

  public static void main(String[] args) {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    List<String> rows = new ArrayList<>();
    for (String engine : options.getEngines().split(",")) {
      run(args, engine.trim(), options.getWarmupElements(), options.getKeys());
      double seconds = run(args, engine.trim(), options.getElements(), options.getKeys());
      rows.add(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %,d | %.2f | %,.0f |",
              engine.trim(),
              options.getElements(),
              options.getKeys(),
              seconds,
              options.getElements() / seconds));
    }
    System.out.println("| engine | elements | keys | seconds | elements/s |");
    System.out.println("|---|---:|---:|---:|---:|");
    rows.forEach(System.out::println);
  }

  /** Runs and verifies one pipeline; returns its wall time in seconds. */
  static double run(String[] args, String engine, long elements, long keys) {
    Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
    options.setRunner(ArconRunner.class);
    options.setStateBackend(engine);
    Pipeline p = Pipeline.create(options);
    p.apply(GenerateSequence.from(0).to(elements))
        .apply(
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                .via((Long i) -> KV.of(i % keys, 1L)))
        .apply("StatefulCount", ParDo.of(new StatefulCount()));
    TimedPipelineRun run = TimedPipelineRun.of(p, engine);
    double seconds = run.seconds();
    long countedKeys = run.counter(NAMESPACE, StatefulCount.KEYS);
    long counted = run.counter(NAMESPACE, StatefulCount.COUNTED);
    long expectedKeys = Math.min(keys, elements);
    if (countedKeys != expectedKeys || counted != elements) {
      throw new IllegalStateException(
          String.format(
              "%s run is wrong: %d keys (expected %d) counted %d elements (expected %d)",
              engine, countedKeys, expectedKeys, counted, elements));
    }
    System.err.printf(
        Locale.ROOT,
        "[keyed-count-per-engine] %s: %,d elements over %,d keys in %.2f s (verified)%n",
        engine,
        elements,
        keys,
        seconds);
    return seconds;
  }

  /** Counts per key in ValueState; emits each key's count once, at the end of the window. */
  static final class StatefulCount extends DoFn<KV<Long, Long>, Void> {
    static final String KEYS = "keys";
    static final String COUNTED = "counted";
    private final Counter keysCounter = Metrics.counter(NAMESPACE, KEYS);
    private final Counter countedCounter = Metrics.counter(NAMESPACE, COUNTED);

    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("end")
    private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<Long, Long> element,
        @StateId("count") ValueState<Long> count,
        @TimerId("end") Timer end,
        BoundedWindow window) {
      Long previous = count.read();
      if (previous == null) {
        end.set(window.maxTimestamp());
        previous = 0L;
      }
      count.write(previous + element.getValue());
    }

    @OnTimer("end")
    public void onEnd(@StateId("count") ValueState<Long> count) {
      keysCounter.inc();
      countedCounter.inc(count.read());
    }
  }
}
