package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.CountCheck;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.flink.api.common.RuntimeExecutionMode;

/**
 * One configuration of {@link PerElementStateBenchmark} in a JVM of its own: a warm-up run, a short
 * run of {@code shortElements} (when positive), then one measured run, each verified from its
 * counters; prints the short run as {@value #SHORT_RESULT} {@code seconds} and the measured run as
 * {@value #RESULT} {@code seconds} for the benchmark to read (the pair gives the steady-state rate,
 * {@link io.arcon.benchmarks.SteadyStateRate}).
 *
 * <p>{@code PerElementStateRun <configuration> <keys> <elements> <warmupElements> <parallelism>
 * <flinkManagedMemory> [<shortElements>]} (the flink memory a size such as {@code 640m}, or {@code
 * default}; no short run without the last argument)
 */
final class PerElementStateRun {
  static final String RESULT = "PER-ELEMENT-RESULT";
  static final String SHORT_RESULT = "PER-ELEMENT-SHORT-RESULT";

  private PerElementStateRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 6 && args.length != 7) {
      throw new IllegalArgumentException(
          "usage: PerElementStateRun <configuration> <keys> <elements> <warmupElements>"
              + " <parallelism> <flinkManagedMemory> [<shortElements>]");
    }
    PerElementStateBenchmark.Configuration configuration =
        PerElementStateBenchmark.Configuration.parseList(args[0]).get(0);
    long keys = Long.parseLong(args[1]);
    long elements = Long.parseLong(args[2]);
    long warmup = Long.parseLong(args[3]);
    int parallelism = Integer.parseInt(args[4]);
    String managedMemory = args[5].equals("default") ? null : args[5];
    long shortElements = args.length == 7 ? Long.parseLong(args[6]) : 0;
    if (warmup > 0) {
      runOnce(configuration, keys, warmup, parallelism, managedMemory);
    }
    if (shortElements > 0) {
      // The first short run after the warm-up still carries the JIT compilers' work on two cores
      // (ArconRunner's 5M-element run took 1.5 s there and 0.7–0.9 s once settled, which made its
      // steady rate at 10k keys look twice what it was): it settles the JVM and is not measured.
      runOnce(configuration, keys, shortElements, parallelism, managedMemory);
      double shortSeconds = runOnce(configuration, keys, shortElements, parallelism, managedMemory);
      System.out.printf(Locale.ROOT, "%s %.6f%n", SHORT_RESULT, shortSeconds);
    }
    double seconds = runOnce(configuration, keys, elements, parallelism, managedMemory);
    System.out.printf(Locale.ROOT, "%s %.6f%n", RESULT, seconds);
    // Flink's MiniCluster and Pekko leave non-daemon threads behind; the result is out.
    System.exit(0);
  }

  /** Runs the job once, verifies its counts; returns its wall time in seconds. */
  static double runOnce(
      PerElementStateBenchmark.Configuration configuration,
      long keys,
      long elements,
      int parallelism,
      String flinkManagedMemory)
      throws Exception {
    double seconds;
    long countedKeys;
    long counted;
    if (configuration.flinkBackend != null) {
      KeyedCountBenchmark.Run run =
          KeyedCountFlinkJob.run(
              RuntimeExecutionMode.STREAMING,
              configuration.flinkBackend,
              parallelism,
              elements,
              keys,
              flinkManagedMemory);
      seconds = run.seconds();
      countedKeys = run.keys();
      counted = run.countedElements();
    } else {
      ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
      options.setRunner(ArconRunner.class);
      options.setParallelism(parallelism);
      options.setStateBackend(configuration.arconBackend);
      // The runtime alone: no TSS registration, no web server (both on by default).
      options.setTss("off");
      options.setWebUi("off");
      Pipeline pipeline = Pipeline.create(options);
      PerElementStatePipeline.build(pipeline, elements, keys);
      TimedPipelineRun run = TimedPipelineRun.of(pipeline, configuration.label);
      seconds = run.seconds();
      countedKeys = run.counter(PerElementStatePipeline.NAMESPACE, PerElementStatePipeline.KEYS);
      counted = run.counter(PerElementStatePipeline.NAMESPACE, PerElementStatePipeline.COUNTED);
    }
    CountCheck.require(
        configuration.label, countedKeys, counted, Math.min(keys, elements), elements);
    return seconds;
  }
}
