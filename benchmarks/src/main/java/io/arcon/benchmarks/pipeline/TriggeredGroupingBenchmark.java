package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.BenchmarkRunners;
import io.arcon.benchmarks.ConfigurationList;
import io.arcon.benchmarks.MeasuredRates;
import io.arcon.benchmarks.RateTable;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.benchmarks.SteadyStateOptions;
import io.arcon.benchmarks.SteadyStateRate;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.pipeline.TriggeredGroupingPipeline.Grouping;
import io.arcon.benchmarks.pipeline.TriggeredGroupingPipeline.Windowing;
import io.arcon.runner.ArconPipelineOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Throughput of triggered and merging-window grouping ({@link TriggeredGroupingPipeline}) on
 * ArconRunner, and optionally on DirectRunner without its checks, in one JVM: each configuration
 * warms up, then the measured runs go in rounds over all configurations. Every run is verified (the
 * panes' element counts add up to the input). Each measured run is paired with a short one before
 * it for its steady-state rate ({@link SteadyStateRate}; {@code --steadyState=false} skips them): a
 * run of 2M elements takes 2–3 s, of which starting the runtime and the final panes at the end of
 * input are a share that a long-running job does not pay per element.
 */
public final class TriggeredGroupingBenchmark {

  private TriggeredGroupingBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions, SteadyStateOptions, ResultsFileOptions {
    @Description("Elements of each measured run")
    @Default.Long(5_000_000)
    long getElements();

    void setElements(long value);

    /**
     * 4M by default: on two cores the JIT compilers take several seconds of CPU to settle on these
     * pipelines, and a 300k warm-up measured them at work (a first round at two thirds of the
     * third's).
     */
    @Description(
        "Elements of the warm-up run of each configuration (0: none); long enough for the JIT"
            + " compilers to settle")
    @Default.Long(4_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys (x % keys)")
    @Default.Long(10_000)
    long getKeys();

    void setKeys(long value);

    @Description("Measured runs (rounds) per configuration")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description(
        "Comma-separated configurations: early-late-gbk, early-late-sum, sessions-gbk,"
            + " sessions-sum, and the same with a direct- prefix for DirectRunner (no checks)")
    @Default.String("early-late-gbk,early-late-sum,sessions-gbk,sessions-sum")
    String getConfigurations();

    void setConfigurations(String value);
  }

  public static void main(String[] args) throws Exception {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    String report = run(args, options);
    ResultsFile.publish(report, ResultsFile.chosen(options, "triggered.txt"), "triggered");
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
    if (options.getWarmupElements() > 0) {
      for (Configuration c : configurations) {
        runOnce(args, c, options.getWarmupElements(), options.getKeys());
      }
    }
    long shortElements = SteadyStateRate.shortElements(options.getElements());
    Map<Configuration, Measurement> measurements = new LinkedHashMap<>();
    for (Configuration c : configurations) {
      measurements.put(c, new Measurement(c, new ArrayList<>(), new ArrayList<>()));
      if (options.getSteadyState()) {
        // Not measured: the first run after the warm-up may still carry the JIT compilers' work,
        // which would shorten nothing but the first short run and inflate its steady rate.
        runOnce(args, c, shortElements, options.getKeys());
      }
    }
    for (int round = 1; round <= options.getRuns(); round++) {
      for (Configuration c : configurations) {
        double shortSeconds =
            options.getSteadyState()
                ? runOnce(args, c, shortElements, options.getKeys())
                : Double.NaN;
        double seconds = runOnce(args, c, options.getElements(), options.getKeys());
        double rate = options.getElements() / seconds;
        Measurement m = measurements.get(c);
        m.rates().add(rate);
        if (options.getSteadyState()) {
          double steady =
              SteadyStateRate.of(shortElements, shortSeconds, options.getElements(), seconds);
          m.steadyRates().add(steady);
          log(
              "round %d: %s: %.2f s = %,.0f el/s; steady state %,.0f el/s (short run: %,d"
                  + " elements in %.2f s)",
              round, c.label, seconds, rate, steady, shortElements, shortSeconds);
        } else {
          log("round %d: %s: %.2f s = %,.0f el/s", round, c.label, seconds, rate);
        }
      }
    }
    return report(options, new ArrayList<>(measurements.values()));
  }

  /** The table of best and mean rates, whole run and (when measured) steady state. */
  static String report(Options options, List<Measurement> measurements) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "TriggeredGroupingBenchmark: %,d elements, %,d keys, %d round(s), ArconRunner"
                + " parallelism %d, %d available processors, Java %s%n",
            options.getElements(),
            options.getKeys(),
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    RateTable.append(
        out, options.getElements(), 58, 14, measurements, m -> m.configuration().label);
    return out.toString();
  }

  /** Runs one configuration once, verifies it, returns its seconds. */
  static double runOnce(String[] args, Configuration c, long elements, long keys) {
    ArconPipelineOptions options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
    if (c.direct) {
      BenchmarkRunners.directRunnerWithoutChecks(options);
    } else {
      BenchmarkRunners.arconRuntimeOnly(options);
    }
    Pipeline pipeline = Pipeline.create(options);
    TriggeredGroupingPipeline.build(pipeline, elements, keys, c.windowing, c.grouping);
    TimedPipelineRun run = TimedPipelineRun.of(pipeline, c.label);
    long panes = run.counter(TriggeredGroupingPipeline.NAMESPACE, TriggeredGroupingPipeline.PANES);
    long counted =
        run.counter(TriggeredGroupingPipeline.NAMESPACE, TriggeredGroupingPipeline.ELEMENTS);
    if (counted != elements || panes < Math.min(keys, elements)) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s produced a wrong result: %,d panes holding %,d elements; expected the %,d"
                  + " elements in at least %,d panes",
              c.label,
              panes,
              counted,
              elements,
              Math.min(keys, elements)));
    }
    return run.seconds();
  }

  private static void log(String format, Object... args) {
    System.err.println("[triggered] " + String.format(Locale.ROOT, format, args));
  }

  /** One configuration's whole-run rates and steady-state rates (empty when not measured). */
  record Measurement(Configuration configuration, List<Double> rates, List<Double> steadyRates)
      implements MeasuredRates {}

  /** A windowing, a grouping and a runner. */
  enum Configuration {
    EARLY_LATE_GBK("early-late-gbk", Windowing.EARLY_LATE, Grouping.GROUP_BY_KEY, false),
    EARLY_LATE_SUM("early-late-sum", Windowing.EARLY_LATE, Grouping.SUM, false),
    SESSIONS_GBK("sessions-gbk", Windowing.SESSIONS, Grouping.GROUP_BY_KEY, false),
    SESSIONS_SUM("sessions-sum", Windowing.SESSIONS, Grouping.SUM, false),
    DIRECT_EARLY_LATE_GBK(
        "direct-early-late-gbk", Windowing.EARLY_LATE, Grouping.GROUP_BY_KEY, true),
    DIRECT_EARLY_LATE_SUM("direct-early-late-sum", Windowing.EARLY_LATE, Grouping.SUM, true),
    DIRECT_SESSIONS_GBK("direct-sessions-gbk", Windowing.SESSIONS, Grouping.GROUP_BY_KEY, true),
    DIRECT_SESSIONS_SUM("direct-sessions-sum", Windowing.SESSIONS, Grouping.SUM, true);

    final String name;
    final Windowing windowing;
    final Grouping grouping;
    final boolean direct;
    final String label;

    Configuration(String name, Windowing windowing, Grouping grouping, boolean direct) {
      this.name = name;
      this.windowing = windowing;
      this.grouping = grouping;
      this.direct = direct;
      this.label =
          (direct ? "DirectRunner (no checks), " : "ArconRunner, ")
              + (windowing == Windowing.EARLY_LATE
                  ? "1-min windows, early+late firings"
                  : "session windows (merging)")
              + (grouping == Grouping.SUM ? ", Sum" : ", GroupByKey");
    }
  }
}
