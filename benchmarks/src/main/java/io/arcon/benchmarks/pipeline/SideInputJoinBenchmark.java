package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.BenchmarkRunners;
import io.arcon.benchmarks.ConfigurationList;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.pipeline.SideInputJoinPipeline.Join;
import io.arcon.benchmarks.pipeline.SideInputJoinPipeline.Table;
import io.arcon.runner.ArconPipelineOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Side-input joins against the same joins on keyed state ({@link SideInputJoinPipeline}), on
 * ArconRunner, in one JVM: each configuration warms up, then the measured runs go in rounds over
 * all configurations, every run verified by the sum of its joined values. Prints el/s (main-input
 * elements per second) and, per table, the side-input join's rate over the keyed-state join's.
 */
public final class SideInputJoinBenchmark {

  private SideInputJoinBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions, ResultsFileOptions {
    @Description("Main-input elements of each measured run")
    @Default.Long(5_000_000)
    long getElements();

    void setElements(long value);

    @Description(
        "Main-input elements of the warm-up run of each configuration (0: none); long enough for"
            + " the JIT compilers to settle on two cores")
    @Default.Long(4_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Keys of the main input and rows of the table (per window when windowed)")
    @Default.Long(10_000)
    long getKeys();

    void setKeys(long value);

    @Description(
        "Event-time length of the windowed table's windows (the main input has about one element"
            + " per millisecond)")
    @Default.Long(100_000)
    long getWindowMillis();

    void setWindowMillis(long value);

    @Description("Measured runs (rounds) per configuration")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description(
        "Comma-separated configurations: global-side-input, global-keyed-state,"
            + " windowed-side-input, windowed-keyed-state, and the same with a direct- prefix for"
            + " DirectRunner (no checks, --parallelism as its target parallelism)")
    @Default.String("global-side-input,global-keyed-state,windowed-side-input,windowed-keyed-state")
    String getConfigurations();

    void setConfigurations(String value);
  }

  public static void main(String[] args) throws Exception {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    String report = run(args, options);
    ResultsFile.publish(
        report, ResultsFile.chosen(options, "side-input-join.txt"), "side-input-join");
  }

  static String run(String[] args, Options options) {
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    List<Configuration> configurations =
        ConfigurationList.parseNonEmpty(
            "--configurations",
            options.getConfigurations(),
            Configuration.values(),
            c -> c.name,
            "");
    Sizes measured = new Sizes(options.getElements(), options.getKeys(), options.getWindowMillis());
    if (options.getWarmupElements() > 0) {
      Sizes warmup =
          new Sizes(options.getWarmupElements(), options.getKeys(), options.getWindowMillis());
      for (Configuration c : configurations) {
        runOnce(args, c, warmup);
      }
    }
    Map<Configuration, List<Double>> rates = new LinkedHashMap<>();
    configurations.forEach(c -> rates.put(c, new ArrayList<>()));
    for (int round = 1; round <= options.getRuns(); round++) {
      for (Configuration c : configurations) {
        double seconds = runOnce(args, c, measured);
        double rate = measured.elements() / seconds;
        rates.get(c).add(rate);
        log("round %d: %s: %.2f s = %,.0f el/s", round, c.label, seconds, rate);
      }
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "SideInputJoinBenchmark: %,d main-input elements, %,d keys (table rows per window),"
                + " %,d ms windows, %d round(s), ArconRunner parallelism %d, %d available"
                + " processors, Java %s%n",
            measured.elements(),
            measured.keys(),
            measured.windowMillis(),
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    out.append(
        String.format(Locale.ROOT, "%-58s %14s %14s%n", "configuration", "best el/s", "mean el/s"));
    rates.forEach(
        (c, r) ->
            out.append(
                String.format(Locale.ROOT, "%-58s %,14.0f %,14.0f%n", c.label, best(r), mean(r))));
    for (Table table : Table.values()) {
      String name = table.name().toLowerCase(Locale.ROOT);
      appendRatio(
          out,
          rates,
          name + " table, ArconRunner: side-input join ÷ keyed-state join",
          Configuration.of(table, Join.SIDE_INPUT, false),
          Configuration.of(table, Join.KEYED_STATE, false));
      for (Join join : Join.values()) {
        appendRatio(
            out,
            rates,
            name
                + " table, "
                + join.name().toLowerCase(Locale.ROOT).replace('_', '-')
                + " join: ArconRunner ÷ DirectRunner",
            Configuration.of(table, join, false),
            Configuration.of(table, join, true));
      }
    }
    return out.toString();
  }

  /** {@code what = a ÷ b (best) / (mean)}, when both were measured. */
  private static void appendRatio(
      StringBuilder out,
      Map<Configuration, List<Double>> rates,
      String what,
      Configuration a,
      Configuration b) {
    List<Double> ra = rates.get(a);
    List<Double> rb = rates.get(b);
    if (ra != null && rb != null) {
      out.append(
          String.format(
              Locale.ROOT,
              "%s = %.2f× (best) / %.2f× (mean)%n",
              what,
              best(ra) / best(rb),
              mean(ra) / mean(rb)));
    }
  }

  private static double best(List<Double> rates) {
    return rates.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  private static double mean(List<Double> rates) {
    return rates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  /** The size of a run. */
  record Sizes(long elements, long keys, long windowMillis) {}

  /** Expected sums by configuration's table and size: computing one walks every element. */
  private static final Map<String, Long> EXPECTED = new HashMap<>();

  private static synchronized long expectedSum(Sizes sizes, Table table) {
    return EXPECTED.computeIfAbsent(
        sizes + "/" + table,
        k ->
            SideInputJoinPipeline.expectedSum(
                sizes.elements(), sizes.keys(), sizes.windowMillis(), table));
  }

  /** Runs one configuration once, verifies it, returns its seconds. */
  static double runOnce(String[] args, Configuration c, Sizes sizes) {
    long expected = expectedSum(sizes, c.table);
    ArconPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
    if (c.direct) {
      BenchmarkRunners.directRunnerWithoutChecks(options)
          .setTargetParallelism(options.getParallelism());
    } else {
      BenchmarkRunners.arconRuntimeOnly(options);
    }
    Pipeline pipeline = Pipeline.create(options);
    SideInputJoinPipeline.build(
        pipeline, sizes.elements(), sizes.keys(), sizes.windowMillis(), c.table, c.join);
    TimedPipelineRun run = TimedPipelineRun.of(pipeline, c.label);
    long results = run.counter(SideInputJoinPipeline.NAMESPACE, SideInputJoinPipeline.RESULTS);
    long sum = run.counter(SideInputJoinPipeline.NAMESPACE, SideInputJoinPipeline.SUM);
    if (results != sizes.elements() || sum != expected) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s produced a wrong result: %,d joined elements adding up to %,d; expected %,d"
                  + " adding up to %,d",
              c.label,
              results,
              sum,
              sizes.elements(),
              expected));
    }
    return run.seconds();
  }

  private static void log(String format, Object... args) {
    System.err.println("[side-input-join] " + String.format(Locale.ROOT, format, args));
  }

  /** A table, a way to join it and a runner. */
  enum Configuration {
    GLOBAL_SIDE_INPUT("global-side-input", Table.GLOBAL, Join.SIDE_INPUT, false),
    GLOBAL_KEYED_STATE("global-keyed-state", Table.GLOBAL, Join.KEYED_STATE, false),
    WINDOWED_SIDE_INPUT("windowed-side-input", Table.WINDOWED, Join.SIDE_INPUT, false),
    WINDOWED_KEYED_STATE("windowed-keyed-state", Table.WINDOWED, Join.KEYED_STATE, false),
    DIRECT_GLOBAL_SIDE_INPUT("direct-global-side-input", Table.GLOBAL, Join.SIDE_INPUT, true),
    DIRECT_GLOBAL_KEYED_STATE("direct-global-keyed-state", Table.GLOBAL, Join.KEYED_STATE, true),
    DIRECT_WINDOWED_SIDE_INPUT("direct-windowed-side-input", Table.WINDOWED, Join.SIDE_INPUT, true),
    DIRECT_WINDOWED_KEYED_STATE(
        "direct-windowed-keyed-state", Table.WINDOWED, Join.KEYED_STATE, true);

    final String name;
    final Table table;
    final Join join;
    final boolean direct;
    final String label;

    Configuration(String name, Table table, Join join, boolean direct) {
      this.name = name;
      this.table = table;
      this.join = join;
      this.direct = direct;
      this.label =
          (direct ? "DirectRunner (no checks), " : "ArconRunner, ")
              + (table == Table.GLOBAL ? "bounded table" : "windowed table")
              + (join == Join.SIDE_INPUT ? ", side input (View.asMap)" : ", keyed state");
    }

    static Configuration of(Table table, Join join, boolean direct) {
      for (Configuration c : values()) {
        if (c.table == table && c.join == join && c.direct == direct) {
          return c;
        }
      }
      throw new IllegalArgumentException(table + " " + join + " " + direct);
    }
  }
}
