package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.BenchmarkRunners;
import io.arcon.benchmarks.ConfigurationList;
import io.arcon.benchmarks.CountCheck;
import io.arcon.benchmarks.MeasuredRates;
import io.arcon.benchmarks.RateTable;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.benchmarks.SteadyStateOptions;
import io.arcon.benchmarks.SteadyStateRate;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.flink.api.common.RuntimeExecutionMode;

/**
 * Whole-pipeline throughput of {@link KeyedCountPipeline} on ArconRunner, on DirectRunner (with its
 * default checks, and with immutability and encodability enforcement off) and, as the native
 * anchor, the same job written for Flink's DataStream API ({@link KeyedCountFlinkJob}, streaming
 * and batch execution), measured in one process so the ratios compare like with like.
 *
 * <p>Each configuration first runs a smaller warm-up (JIT, class loading), then {@code --runs}
 * measured runs; a run's time is from {@code run()} to the end of {@code waitUntilFinish()}, so it
 * includes the runner's start and shutdown, as a user sees it. With {@code --steadyState} (the
 * default) each measured run is preceded by a short run of a quarter of its elements, and the
 * elements beyond it over the extra time give the steady-state rate, without the start and stop
 * costs ({@link SteadyStateRate}). Every run is verified from its counters before its time is
 * reported.
 */
public final class KeyedCountBenchmark {

  private KeyedCountBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions, SteadyStateOptions, ResultsFileOptions {
    @Description("Elements of each measured run")
    @Default.Long(10_000_000)
    long getElements();

    void setElements(long value);

    @Description("Elements of the warm-up run before each configuration's measured runs")
    @Default.Long(1_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys (x % keys)")
    @Default.Integer(10_000)
    int getKeys();

    void setKeys(int value);

    @Description("Measured runs per configuration; the best and the mean are reported")
    @Default.Integer(1)
    int getRuns();

    void setRuns(int value);

    @Description(
        "Comma-separated configurations to measure: arcon, direct, direct-unchecked, flink,"
            + " flink-batch (all by default)")
    @Default.String("arcon,direct,direct-unchecked,flink,flink-batch")
    String getConfigurations();

    void setConfigurations(String value);
  }

  public static void main(String[] args) throws IOException {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    if (options.getWarmupElements() < 0) {
      throw new IllegalArgumentException(
          "--warmupElements must not be negative (0 skips the warm-up), got "
              + options.getWarmupElements());
    }
    List<Configuration> configurations = Configuration.parseList(options.getConfigurations());

    List<Measurement> measurements = new ArrayList<>();
    for (Configuration configuration : configurations) {
      if (options.getWarmupElements() > 0) {
        log("%s: warm-up with %,d elements", configuration.label, options.getWarmupElements());
        runOnce(configuration, args, options.getWarmupElements(), options.getKeys());
        log(
            "%s: warm-up done; heap after GC %,d MB",
            configuration.label, TimedPipelineRun.usedHeapAfterGcMb());
      }
      List<Double> rates = new ArrayList<>();
      List<Double> steadyRates = new ArrayList<>();
      long shortElements = SteadyStateRate.shortElements(options.getElements());
      if (options.getSteadyState()) {
        // Not measured: the first run after the warm-up may still carry the JIT compilers' work,
        // which would shorten nothing but the first short run and inflate its steady rate.
        runOnce(configuration, args, shortElements, options.getKeys());
      }
      for (int run = 1; run <= options.getRuns(); run++) {
        double shortSeconds =
            options.getSteadyState()
                ? runOnce(configuration, args, shortElements, options.getKeys()).seconds()
                : Double.NaN;
        double seconds =
            runOnce(configuration, args, options.getElements(), options.getKeys()).seconds();
        double rate = options.getElements() / seconds;
        rates.add(rate);
        if (options.getSteadyState()) {
          double steady =
              SteadyStateRate.of(shortElements, shortSeconds, options.getElements(), seconds);
          steadyRates.add(steady);
          log(
              "%s: run %d: steady state %,.0f elements/s (short run: %,d elements in %.2f s)",
              configuration.label, run, steady, shortElements, shortSeconds);
        }
        log(
            "%s: run %d: %,d elements in %.2f s = %,.0f elements/s; heap after GC %,d MB",
            configuration.label,
            run,
            options.getElements(),
            seconds,
            rate,
            TimedPipelineRun.usedHeapAfterGcMb());
      }
      measurements.add(new Measurement(configuration, rates, steadyRates));
    }

    String report = report(options, measurements);
    ResultsFile.publish(report, ResultsFile.chosen(options, "keyed-count.txt"), "keyed-count");
  }

  /** What one run took and what its sink counted. */
  record Run(double seconds, long keys, long countedElements) {}

  /** Runs the pipeline once and verifies it from its counters; fails on a wrong result. */
  static Run runOnce(Configuration configuration, String[] args, long elements, int keys) {
    Options options = configuration.options(args);
    Run run =
        configuration.flinkMode == null
            ? runBeam(configuration, options, elements, keys)
            : runFlink(configuration, options, elements, keys);
    CountCheck.require(
        configuration.label, run.keys(), run.countedElements(), Math.min(keys, elements), elements);
    return run;
  }

  private static Run runBeam(
      Configuration configuration, Options options, long elements, int keys) {
    Pipeline pipeline = Pipeline.create(options);
    KeyedCountPipeline.build(pipeline, elements, keys);
    TimedPipelineRun run = TimedPipelineRun.of(pipeline, configuration.label);
    return new Run(
        run.seconds(),
        run.counter(KeyedCountPipeline.NAMESPACE, KeyedCountPipeline.KEYS),
        run.counter(KeyedCountPipeline.NAMESPACE, KeyedCountPipeline.COUNTED));
  }

  /** The Flink job at ArconRunner's {@code --parallelism}, so both use the same number of tasks. */
  private static Run runFlink(
      Configuration configuration, Options options, long elements, int keys) {
    try {
      return KeyedCountFlinkJob.run(
          configuration.flinkMode, options.getParallelism(), elements, keys);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(configuration.label + " failed: " + e, e);
    }
  }

  /** The measured table, and ArconRunner's ratio against every other configuration that ran. */
  static String report(Options options, List<Measurement> measurements) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "KeyedCountBenchmark: %,d elements, %,d keys, %d measured run(s) each, ArconRunner"
                + " parallelism %d, %d available processors, Java %s%n",
            options.getElements(),
            options.getKeys(),
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    boolean steady =
        RateTable.append(
            out, options.getElements(), 45, 18, measurements, m -> m.configuration.label);
    Measurement arcon = find(measurements, Configuration.ARCON);
    for (Measurement baseline : measurements) {
      if (arcon != null && baseline != arcon) {
        out.append(
            String.format(
                Locale.ROOT,
                "ratio ArconRunner / %s: %.2fx (best), %.2fx (mean)%n",
                baseline.configuration.label,
                arcon.best() / baseline.best(),
                arcon.mean() / baseline.mean()));
        if (steady) {
          out.append(
              String.format(
                  Locale.ROOT,
                  "steady-state ratio ArconRunner / %s: %.2fx (best), %.2fx (mean)%n",
                  baseline.configuration.label,
                  arcon.steadyBest() / baseline.steadyBest(),
                  arcon.steadyMean() / baseline.steadyMean()));
        }
      }
    }
    return out.toString();
  }

  private static Measurement find(List<Measurement> measurements, Configuration configuration) {
    for (Measurement m : measurements) {
      if (m.configuration == configuration) {
        return m;
      }
    }
    return null;
  }

  private static void log(String format, Object... args) {
    System.err.println("[keyed-count] " + String.format(Locale.ROOT, format, args));
  }

  /** A runner and its settings. */
  enum Configuration {
    ARCON("arcon", "ArconRunner", null),
    DIRECT("direct", "DirectRunner (default)", null),
    DIRECT_UNCHECKED("direct-unchecked", "DirectRunner (no immutability/encodability)", null),
    FLINK("flink", "Flink DataStream (streaming)", RuntimeExecutionMode.STREAMING),
    FLINK_BATCH("flink-batch", "Flink DataStream (batch)", RuntimeExecutionMode.BATCH);

    final String name;
    final String label;

    /** The execution mode of the native Flink job, or null for a Beam runner. */
    final RuntimeExecutionMode flinkMode;

    Configuration(String name, String label, RuntimeExecutionMode flinkMode) {
      this.name = name;
      this.label = label;
      this.flinkMode = flinkMode;
    }

    /** Fresh options per run, so no run sees state another run left in its options. */
    Options options(String[] args) {
      Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
      switch (this) {
        case ARCON, FLINK, FLINK_BATCH -> options.setRunner(ArconRunner.class);
        case DIRECT -> options.setRunner(DirectRunner.class);
        case DIRECT_UNCHECKED -> BenchmarkRunners.directRunnerWithoutChecks(options);
      }
      return options;
    }

    static List<Configuration> parseList(String names) {
      return ConfigurationList.parseNonEmpty("--configurations", names, values(), c -> c.name, "");
    }
  }

  /**
   * Throughputs of one configuration's measured runs, and their steady-state rates (empty when not
   * measured; NaN for a run that gave none).
   */
  record Measurement(Configuration configuration, List<Double> rates, List<Double> steadyRates)
      implements MeasuredRates {
    Measurement(Configuration configuration, List<Double> rates) {
      this(configuration, rates, List.of());
    }
  }
}
