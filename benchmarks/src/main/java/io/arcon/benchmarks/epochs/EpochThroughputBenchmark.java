package io.arcon.benchmarks.epochs;

import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import io.arcon.state.snapshot.FileTrees;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * What aligned epochs cost a running pipeline (issue 14, item 8): every {@link
 * ThroughputConfiguration} (the keyed count and the {@code ValueState} counter, on each state
 * engine) runs with checkpointing off and with {@code
 * --checkpointingInterval=<epochIntervalMillis>} in the same JVM, and the report gives the
 * throughput ratio on/off with the epochs the runner's metrics counted (completed, mean duration
 * and size).
 *
 * <p>Runs are interleaved so that drift (other load on the machine, heap growth, disk caches) falls
 * on both sides alike: after the warm-ups, every round runs every configuration's off and on runs
 * back to back, alternating which goes first (off/on in odd rounds, on/off in even ones), and the
 * report gives each round's ratio besides the ratio of the means. Every run is verified from its
 * sink's counters, and an off run that reports an epoch fails the benchmark.
 *
 * <p>Each configuration's measured runs have the same number of elements; unless {@code --elements}
 * fixes it, calibration runs size it so that a run lasts about {@code --runSeconds} without epochs
 * (the engines differ by 10x in speed, and a run must span several intervals for the ratio to mean
 * anything).
 *
 * <p>TSS is off unless {@code --tss} is given, so the ratio is the cost of epochs alone.
 */
public final class EpochThroughputBenchmark {

  private EpochThroughputBenchmark() {}

  /** The target: checkpointing every second costs at most 10% of throughput. */
  static final double TARGET_RATIO = 0.9;

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions, ResultsFileOptions {
    @Description(
        "Elements of each measured run (0: sized per configuration from its warm-up, see"
            + " --runSeconds)")
    @Default.Long(0)
    long getElements();

    void setElements(long value);

    @Description("Target length of a measured run without epochs when --elements is 0, in seconds")
    @Default.Integer(10)
    int getRunSeconds();

    void setRunSeconds(int value);

    @Description(
        "Elements of the warm-up runs (one off, one on) before a configuration is measured; with"
            + " --elements=0 the first of the calibration runs, which double it")
    @Default.Long(1_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys")
    @Default.Integer(10_000)
    int getKeys();

    void setKeys(int value);

    @Description("Rounds; each round runs every configuration once off and once on")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description("--checkpointingInterval of the runs with epochs, in milliseconds")
    @Default.Long(1000)
    long getEpochIntervalMillis();

    void setEpochIntervalMillis(long value);

    @Description(
        "Comma-separated configurations <pipeline>-<engine>: keyed-count-heap,"
            + " keyed-count-rocksdb, keyed-count-lmdb, counter-heap, counter-rocksdb, counter-lmdb"
            + " (all by default)")
    @Default.String(
        "keyed-count-heap,keyed-count-rocksdb,keyed-count-lmdb,counter-heap,counter-rocksdb,"
            + "counter-lmdb")
    String getConfigurations();

    void setConfigurations(String value);
  }

  /** One verified run. */
  record Run(double elementsPerSecond, EpochStats epochs) {}

  /** A configuration's measured runs, round by round. */
  record Measurement(
      ThroughputConfiguration configuration, long elements, List<Run> off, List<Run> on) {

    double offMean() {
      return off.stream().mapToDouble(Run::elementsPerSecond).average().orElseThrow();
    }

    double onMean() {
      return on.stream().mapToDouble(Run::elementsPerSecond).average().orElseThrow();
    }

    /** Mean throughput with epochs over mean throughput without. */
    double ratio() {
      return onMean() / offMean();
    }

    /** Each round's on/off ratio. */
    List<Double> roundRatios() {
      List<Double> ratios = new ArrayList<>();
      for (int i = 0; i < on.size(); i++) {
        ratios.add(on.get(i).elementsPerSecond() / off.get(i).elementsPerSecond());
      }
      return ratios;
    }

    /** The epochs of all runs with epochs together. */
    EpochStats epochs() {
      EpochStats total = EpochStats.NONE;
      for (Run run : on) {
        total = total.plus(run.epochs());
      }
      return total;
    }
  }

  public static void main(String[] args) throws IOException {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    List<Measurement> measurements = run(args, options);
    String report = report(options, measurements);
    ResultsFile.publish(report, ResultsFile.chosen(options, "epochs-throughput.txt"), "epochs");
  }

  /** Warms up and sizes every configuration, then runs the interleaved rounds. */
  static List<Measurement> run(String[] args, Options options) throws IOException {
    check(options);
    List<ThroughputConfiguration> configurations =
        ThroughputConfiguration.parseList(options.getConfigurations());

    Map<ThroughputConfiguration, Long> elements = new LinkedHashMap<>();
    for (ThroughputConfiguration c : configurations) {
      long size = options.getElements();
      if (options.getWarmupElements() > 0) {
        long warmup = options.getWarmupElements();
        log("%s: warm-up with %,d elements, epochs on", c.label(), warmup);
        runOnce(c, true, args, options, warmup);
        if (size == 0) {
          size = calibrate(c, args, options);
        } else {
          log("%s: warm-up with %,d elements, epochs off", c.label(), warmup);
          runOnce(c, false, args, options, warmup);
        }
      }
      log("%s: %,d elements per measured run", c.label(), size);
      elements.put(c, size);
    }

    Map<ThroughputConfiguration, List<Run>> off = new LinkedHashMap<>();
    Map<ThroughputConfiguration, List<Run>> on = new LinkedHashMap<>();
    for (int round = 1; round <= options.getRuns(); round++) {
      for (ThroughputConfiguration c : configurations) {
        boolean onFirst = round % 2 == 0;
        for (boolean withEpochs :
            onFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
          Run run = runOnce(c, withEpochs, args, options, elements.get(c));
          (withEpochs ? on : off).computeIfAbsent(c, k -> new ArrayList<>()).add(run);
          log(
              "round %d, %s, epochs %s: %,.0f elements/s, %d epochs completed (mean %.0f ms, %,.0f"
                  + " bytes), %d given up; heap after GC %,d MB",
              round,
              c.label(),
              withEpochs ? "on" : "off",
              run.elementsPerSecond(),
              run.epochs().completed(),
              run.epochs().meanDurationMillis(),
              run.epochs().meanSizeBytes(),
              run.epochs().givenUp(),
              TimedPipelineRun.usedHeapAfterGcMb());
        }
      }
    }
    List<Measurement> measurements = new ArrayList<>();
    for (ThroughputConfiguration c : configurations) {
      measurements.add(new Measurement(c, elements.get(c), off.get(c), on.get(c)));
    }
    return measurements;
  }

  private static void check(Options options) {
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    if (options.getElements() < 0) {
      throw new IllegalArgumentException(
          "--elements must not be negative (0 sizes runs from the warm-up), got "
              + options.getElements());
    }
    if (options.getWarmupElements() < 0) {
      throw new IllegalArgumentException(
          "--warmupElements must not be negative (0 skips the warm-up), got "
              + options.getWarmupElements());
    }
    if (options.getElements() == 0 && options.getWarmupElements() == 0) {
      throw new IllegalArgumentException(
          "--elements=0 sizes the runs from the warm-up, but --warmupElements is 0; give one of"
              + " them a positive value");
    }
    if (options.getRunSeconds() <= 0) {
      throw new IllegalArgumentException(
          "--runSeconds must be positive, got " + options.getRunSeconds());
    }
    if (options.getEpochIntervalMillis() <= 0) {
      throw new IllegalArgumentException(
          "--epochIntervalMillis must be positive, got " + options.getEpochIntervalMillis());
    }
    Long interval = options.getCheckpointingInterval();
    if (interval != null && interval != -1L) {
      throw new IllegalArgumentException(
          "--checkpointingInterval is set by the benchmark (off for one run, on for the other);"
              + " give the interval of the runs with epochs as --epochIntervalMillis instead");
    }
  }

  /**
   * Runs {@code configuration} once, with epochs every {@code --epochIntervalMillis} or without,
   * into a fresh checkpoint directory that is deleted afterwards (under {@code --checkpointDir}
   * when given, else the temp dir).
   */
  static Run runOnce(
      ThroughputConfiguration configuration,
      boolean withEpochs,
      String[] args,
      Options benchmark,
      long elements)
      throws IOException {
    Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
    options.setRunner(ArconRunner.class);
    options.setStateBackend(configuration.backend());
    if (benchmark.getTss() == null) {
      // Epochs alone are measured: with TSS on (ArconRunner's default) a stateful pipeline also
      // keeps version chains, which every snapshot then carries. --tss=on measures both together.
      options.setTss("off");
    }
    String parent = benchmark.getCheckpointDir();
    Path checkpoints =
        parent == null || parent.isBlank()
            ? Files.createTempDirectory("arcon-epochs-bench-")
            : Files.createTempDirectory(
                Files.createDirectories(Path.of(parent)), "arcon-epochs-bench-");
    options.setCheckpointDir(checkpoints.toString());
    options.setCheckpointingInterval(withEpochs ? benchmark.getEpochIntervalMillis() : -1L);
    String label = configuration.label() + (withEpochs ? ", epochs on" : ", epochs off");
    try {
      Pipeline pipeline = Pipeline.create(options);
      configuration.pipeline().build(pipeline, elements, benchmark.getKeys());
      TimedPipelineRun run = TimedPipelineRun.of(pipeline, label);
      configuration.pipeline().verify(label, run, elements, benchmark.getKeys());
      EpochStats epochs = EpochStats.of(run.result());
      if (!withEpochs && (epochs.completed() > 0 || epochs.givenUp() > 0)) {
        throw new IllegalStateException(
            label + " reported epochs although checkpointing was off: " + epochs);
      }
      return new Run(elements / run.seconds(), epochs);
    } finally {
      FileTrees.deleteRecursively(checkpoints);
    }
  }

  /**
   * The elements that make a run without epochs last about {@code --runSeconds}: runs of {@code
   * --warmupElements}, doubling until one lasts a quarter of that, scaled up linearly from the last
   * (a short run is dominated by the runner's start and stop, so its rate would undersize the
   * measured runs). The calibration runs are the warm-up of the runs without epochs.
   */
  private static long calibrate(ThroughputConfiguration c, String[] args, Options options)
      throws IOException {
    double target = options.getRunSeconds();
    long probe = options.getWarmupElements();
    while (true) {
      Run run = runOnce(c, false, args, options, probe);
      double seconds = probe / run.elementsPerSecond();
      log("%s: calibration, epochs off: %,d elements in %.2f s", c.label(), probe, seconds);
      if (seconds >= target / 4 || probe > Long.MAX_VALUE / 4) {
        return Math.max(probe, twoSignificantDigits(probe * target / seconds));
      }
      probe *= 2;
    }
  }

  /** {@code value} rounded to two significant digits, so run sizes read well in the report. */
  static long twoSignificantDigits(double value) {
    if (value < 1) {
      return 1;
    }
    return new BigDecimal(value).round(new MathContext(2)).longValue();
  }

  /** The measured table, each configuration's ratio on/off, and the keyed count's target. */
  static String report(Options options, List<Measurement> measurements) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "EpochThroughputBenchmark: epochs every %d ms vs none, TSS %s, %,d keys, %d"
                + " interleaved round(s), parallelism %d, %d available processors, Java %s%n",
            options.getEpochIntervalMillis(),
            options.getTss() == null ? "off" : options.getTss(),
            options.getKeys(),
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    out.append(
        String.format(
            Locale.ROOT,
            "%-28s %12s %14s %14s %7s %-22s %8s %9s %9s %12s %6s%n",
            "configuration",
            "elements",
            "off mean el/s",
            "on mean el/s",
            "on/off",
            "per round",
            "ep./run",
            "mean ms",
            "max ms",
            "mean bytes",
            "gvnUp"));
    for (Measurement m : measurements) {
      EpochStats epochs = m.epochs();
      StringJoiner rounds = new StringJoiner(" ");
      for (double r : m.roundRatios()) {
        rounds.add(String.format(Locale.ROOT, "%.2f", r));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-28s %,12d %,14.0f %,14.0f %7.3f %-22s %8.1f %9.0f %9d %,12.0f %6d%n",
              m.configuration().name(),
              m.elements(),
              m.offMean(),
              m.onMean(),
              m.ratio(),
              rounds,
              (double) epochs.completed() / m.on().size(),
              epochs.meanDurationMillis(),
              epochs.durationMaxMillis(),
              epochs.meanSizeBytes(),
              epochs.givenUp()));
    }
    for (Measurement m : measurements) {
      if (m.configuration().pipeline() == MeasuredPipeline.KEYED_COUNT) {
        out.append(
            String.format(
                Locale.ROOT,
                "%s: epochs cost %.1f%% of throughput (mean) [target <= 10%%: %s]%n",
                m.configuration().name(),
                (1 - m.ratio()) * 100,
                m.ratio() >= TARGET_RATIO ? "met" : "NOT met"));
      }
    }
    return out.toString();
  }

  private static void log(String format, Object... args) {
    System.err.println("[epochs] " + String.format(Locale.ROOT, format, args));
  }
}
