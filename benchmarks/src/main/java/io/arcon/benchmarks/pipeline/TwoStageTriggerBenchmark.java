package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.BenchmarkRunners;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.pipeline.TwoStageTriggerPipeline.Stage2Trigger;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;

/**
 * What synchronized processing time costs: {@link TwoStageTriggerPipeline} on ArconRunner with the
 * second GroupByKey under Beam's continuation trigger (synchronized time on) and under its own
 * processing-time trigger (off), and on DirectRunner (continuation trigger, immutability and
 * encodability checks off) for reference, in one process.
 *
 * <p>Each configuration has a warm-up run and then {@code --runs} measured runs, each verified from
 * the sink's counters; results go to {@code benchmarks/target/two-stage-trigger.txt}.
 */
public final class TwoStageTriggerBenchmark {

  private TwoStageTriggerBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions {
    // DirectRunner runs every element through the GroupByKey's trigger state (it lifts no combine
    // under a non-default trigger), so its runs are long: 2M elements by default.
    @Description("Elements of each measured run")
    @Default.Long(2_000_000)
    long getElements();

    void setElements(long value);

    @Description("Elements of the warm-up run before each configuration's measured runs")
    @Default.Long(200_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys of the first GroupByKey (x % keys)")
    @Default.Integer(10_000)
    int getKeys();

    void setKeys(int value);

    @Description("Processing-time delay of the early panes, in milliseconds")
    @Default.Long(100)
    long getDelayMillis();

    void setDelayMillis(long value);

    @Description("Measured runs per configuration; the best and the mean are reported")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);
  }

  /** A runner and the second stage's trigger. */
  enum Configuration {
    ARCON_CONTINUATION("ArconRunner, continuation trigger (synchronized time)", true),
    ARCON_OWN_CLOCK("ArconRunner, own processing-time trigger", true),
    DIRECT_CONTINUATION("DirectRunner (no immutability/encodability), continuation trigger", false);

    final String label;
    final boolean arcon;

    Configuration(String label, boolean arcon) {
      this.label = label;
      this.arcon = arcon;
    }

    Stage2Trigger stage2() {
      return this == ARCON_OWN_CLOCK ? Stage2Trigger.OWN_CLOCK : Stage2Trigger.CONTINUATION;
    }

    Options options(String[] args) {
      Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
      if (arcon) {
        options.setRunner(ArconRunner.class);
      } else {
        BenchmarkRunners.directRunnerWithoutChecks(options);
      }
      return options;
    }
  }

  /** What one run took, the panes that reached the sink and the elements they add up to. */
  record Run(double seconds, long panes, long summedElements) {}

  public static void main(String[] args) throws IOException {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            Locale.ROOT,
            "TwoStageTriggerBenchmark: %,d elements, %,d keys, early panes every %d ms, %d measured"
                + " run(s) each, ArconRunner parallelism %d, %d available processors, Java %s%n",
            options.getElements(),
            options.getKeys(),
            options.getDelayMillis(),
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    report.append(
        String.format(
            Locale.ROOT,
            "%-70s %14s %14s %10s%n",
            "configuration",
            "best el/s",
            "mean el/s",
            "panes"));
    double[] means = new double[Configuration.values().length];
    for (Configuration configuration : Configuration.values()) {
      if (options.getWarmupElements() > 0) {
        runOnce(configuration, args, options.getWarmupElements());
      }
      List<Double> rates = new ArrayList<>();
      long panes = 0;
      for (int i = 1; i <= options.getRuns(); i++) {
        Run run = runOnce(configuration, args, options.getElements());
        rates.add(options.getElements() / run.seconds());
        panes += run.panes();
        log(
            "%s: run %d: %.2f s = %,.0f elements/s, %d panes at the sink; heap after GC %,d MB",
            configuration.label,
            i,
            run.seconds(),
            options.getElements() / run.seconds(),
            run.panes(),
            TimedPipelineRun.usedHeapAfterGcMb());
      }
      double best = rates.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      double mean = rates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      means[configuration.ordinal()] = mean;
      report.append(
          String.format(
              Locale.ROOT,
              "%-70s %,14.0f %,14.0f %10.1f%n",
              configuration.label,
              best,
              mean,
              (double) panes / options.getRuns()));
    }
    report.append(
        String.format(
            Locale.ROOT,
            "synchronized time: continuation / own-clock mean throughput = %.2f%n",
            means[Configuration.ARCON_CONTINUATION.ordinal()]
                / means[Configuration.ARCON_OWN_CLOCK.ordinal()]));
    report.append(
        String.format(
            Locale.ROOT,
            "ratio ArconRunner / DirectRunner, continuation trigger, mean: %.1fx%n",
            means[Configuration.ARCON_CONTINUATION.ordinal()]
                / means[Configuration.DIRECT_CONTINUATION.ordinal()]));
    ResultsFile.publish(
        report.toString(),
        ResultsFile.inModuleTarget("two-stage-trigger.txt"),
        "two-stage-trigger");
  }

  /** Runs the pipeline once and verifies it: the panes' sums must add up to every element. */
  static Run runOnce(Configuration configuration, String[] args, long elements) {
    Options options = configuration.options(args);
    Pipeline pipeline = Pipeline.create(options);
    TwoStageTriggerPipeline.build(
        pipeline,
        elements,
        options.getKeys(),
        Duration.millis(options.getDelayMillis()),
        configuration.stage2());
    TimedPipelineRun timed = TimedPipelineRun.of(pipeline, configuration.label);
    Run run =
        new Run(
            timed.seconds(),
            timed.counter(TwoStageTriggerPipeline.NAMESPACE, TwoStageTriggerPipeline.PANES),
            timed.counter(TwoStageTriggerPipeline.NAMESPACE, TwoStageTriggerPipeline.SUMMED));
    long regions = Math.min(TwoStageTriggerPipeline.REGIONS, Math.min(options.getKeys(), elements));
    if (run.summedElements() != elements || run.panes() < regions) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s produced a wrong result: panes add up to %d elements in %d panes, expected %d"
                  + " elements in at least %d panes",
              configuration.label,
              run.summedElements(),
              run.panes(),
              elements,
              regions));
    }
    return run;
  }

  private static void log(String format, Object... args) {
    System.err.println("[two-stage-trigger] " + String.format(Locale.ROOT, format, args));
  }
}
