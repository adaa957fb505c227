package io.arcon.benchmarks.portable;

import io.arcon.benchmarks.ConfigurationList;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.portability.testing.ArconPortableRunner;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.io.IOException;
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
 * What Beam's Job API costs a Java pipeline on ArconRunner: {@link WordCountPipeline} on the
 * classic path (ArconRunner runs the Java transforms itself) and through the Job API ({@link
 * ArconPortableRunner}: the pipeline's proto goes over gRPC to a job server in this JVM, which runs
 * its fused stages in the EMBEDDED Java SDK harness over the Fn API), same input, same process.
 *
 * <p>Each configuration has a warm-up run, then {@code --runs} measured runs, each verified from
 * its counters; words/s are printed with the classic ÷ portable ratio and written to {@code
 * benchmarks/target/portable-word-count.txt}.
 */
public final class PortableWordCountBenchmark {

  private PortableWordCountBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} is ArconRunner's own. */
  public interface Options extends ArconPipelineOptions {
    @Description("Lines of each measured run (10 words each)")
    @Default.Long(1_000_000)
    long getLines();

    void setLines(long value);

    @Description("Lines of the warm-up run before each configuration's measured runs")
    @Default.Long(100_000)
    long getWarmupLines();

    void setWarmupLines(long value);

    @Description("Distinct words the lines are drawn from")
    @Default.Integer(10_000)
    int getVocabulary();

    void setVocabulary(int value);

    @Description("Measured runs per configuration; the best and the mean are reported")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description("Configurations to run, comma-separated: classic,portable")
    @Default.String("classic,portable")
    String getConfigurations();

    void setConfigurations(String value);
  }

  /** The two ways a Java pipeline reaches ArconRunner. */
  enum Configuration {
    CLASSIC("classic", "ArconRunner (Java transforms run by the runner)"),
    PORTABLE("portable", "ArconPortableRunner (Job API, EMBEDDED SDK harness, in-process server)");

    final String key;
    final String label;

    Configuration(String key, String label) {
      this.key = key;
      this.label = label;
    }

    Options options(String[] args) {
      Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
      options.setRunner(this == CLASSIC ? ArconRunner.class : ArconPortableRunner.class);
      // Benchmark runs neither register with TSS nor serve a web UI.
      options.setTss("off");
      options.setWebUi("off");
      return options;
    }
  }

  public static void main(String[] args) throws IOException {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    if (options.getRuns() <= 0 || options.getLines() <= 0) {
      throw new IllegalArgumentException(
          "--runs and --lines must be positive, got "
              + options.getRuns()
              + " and "
              + options.getLines());
    }
    List<Configuration> configurations =
        ConfigurationList.parse(
            options.getConfigurations(), Configuration.values(), c -> c.key, "");
    long words = options.getLines() * WordCountPipeline.WORDS_PER_LINE;
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            Locale.ROOT,
            "PortableWordCountBenchmark: %,d lines = %,d words from a %,d-word vocabulary, %d"
                + " measured run(s) each after a warm-up, parallelism %d, %d available processors,"
                + " Java %s%n",
            options.getLines(),
            words,
            options.getVocabulary(),
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    report.append(
        String.format(
            Locale.ROOT, "%-75s %14s %14s%n", "configuration", "best words/s", "mean words/s"));
    Map<Configuration, Double> means = new LinkedHashMap<>();
    for (Configuration configuration : configurations) {
      if (options.getWarmupLines() > 0) {
        runOnce(configuration, args, options.getWarmupLines(), options.getVocabulary());
      }
      List<Double> rates = new ArrayList<>();
      for (int i = 1; i <= options.getRuns(); i++) {
        double seconds = runOnce(configuration, args, options.getLines(), options.getVocabulary());
        rates.add(words / seconds);
        log(
            "%s: run %d: %.2f s = %,.0f words/s; heap after GC %,d MB",
            configuration.label, i, seconds, words / seconds, TimedPipelineRun.usedHeapAfterGcMb());
      }
      double best = rates.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      double mean = rates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      means.put(configuration, mean);
      report.append(
          String.format(Locale.ROOT, "%-75s %,14.0f %,14.0f%n", configuration.label, best, mean));
    }
    if (means.containsKey(Configuration.CLASSIC) && means.containsKey(Configuration.PORTABLE)) {
      report.append(
          String.format(
              Locale.ROOT,
              "ratio classic / portable, mean words/s: %.2fx%n",
              means.get(Configuration.CLASSIC) / means.get(Configuration.PORTABLE)));
    }
    ResultsFile.publish(
        report.toString(),
        ResultsFile.inModuleTarget("portable-word-count.txt"),
        "portable-word-count");
    // The in-process job server's threads would keep the JVM alive.
    System.exit(0);
  }

  /** Runs the pipeline once, checks its counts and returns how long it took, in seconds. */
  static double runOnce(Configuration configuration, String[] args, long lines, int vocabulary) {
    Pipeline pipeline = Pipeline.create(configuration.options(args));
    WordCountPipeline.build(pipeline, lines, vocabulary);
    TimedPipelineRun run = TimedPipelineRun.of(pipeline, configuration.label);
    long counted = run.counter(WordCountPipeline.NAMESPACE, WordCountPipeline.COUNTED);
    long distinct = run.counter(WordCountPipeline.NAMESPACE, WordCountPipeline.WORDS);
    long expected = lines * WordCountPipeline.WORDS_PER_LINE;
    if (counted != expected || distinct <= 0 || distinct > vocabulary) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s counted %,d words in %,d distinct ones; expected %,d words in at most %,d",
              configuration.label,
              counted,
              distinct,
              expected,
              vocabulary));
    }
    return run.seconds();
  }

  private static void log(String format, Object... args) {
    System.err.printf(Locale.ROOT, "[portable-word-count] " + format + "%n", args);
  }
}
