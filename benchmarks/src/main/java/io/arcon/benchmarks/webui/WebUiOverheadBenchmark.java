package io.arcon.benchmarks.webui;

import io.arcon.benchmarks.CountCheck;
import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.pipeline.KeyedCountPipeline;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * What the web UI and {@code /metrics} cost a running job (issue 17): the keyed count ({@link
 * KeyedCountPipeline}) with {@code --webUi=off} and with {@code --webUi=on} while a {@link
 * UiScraper} reads the job's page data and {@code /metrics} every {@code --scrapeMillis} — an open
 * browser tab and a Prometheus scraping 15 times more often than its default.
 *
 * <p>The nodes keep their live figures either way (they are part of the runtime); what is measured
 * is serving them. Runs are interleaved after the warm-ups (off/on in odd rounds, on/off in even
 * ones), and the report gives each round's ratio besides the ratio of the means. Every run is
 * verified from its sink's counters.
 */
public final class WebUiOverheadBenchmark {
  private WebUiOverheadBenchmark() {}

  /** The target: the UI and metrics cost at most 2% of keyed-count throughput. */
  static final double TARGET_RATIO = 0.98;

  /** Options of the benchmark; {@code --parallelism}, {@code --stateBackend} are the runner's. */
  public interface Options extends ArconPipelineOptions, ResultsFileOptions {
    @Description("Elements of each measured run")
    @Default.Long(10_000_000)
    long getElements();

    void setElements(long value);

    @Description("Elements of each warm-up run (one off, one on)")
    @Default.Long(2_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys")
    @Default.Integer(10_000)
    int getKeys();

    void setKeys(int value);

    @Description("Rounds; each runs the job once with the UI off and once on")
    @Default.Integer(5)
    int getRuns();

    void setRuns(int value);

    @Description("Milliseconds between two reads of the UI while a job with the UI runs")
    @Default.Long(1000)
    long getScrapeMillis();

    void setScrapeMillis(long value);
  }

  /** One verified run; {@code scrapes} counts the UI reads during it (0 with the UI off). */
  record Run(double elementsPerSecond, long scrapes) {}

  public static void main(String[] args) throws Exception {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    check(options);
    int port = freePort();
    log("warm-up: %,d elements, UI off then on (port %d)", options.getWarmupElements(), port);
    runOnce(false, args, options, options.getWarmupElements(), port, false);
    // This run also starts the JVM's UI server, which then serves every later run with the UI.
    runOnce(true, args, options, options.getWarmupElements(), port, false);
    List<Run> off = new ArrayList<>();
    List<Run> on = new ArrayList<>();
    for (int round = 1; round <= options.getRuns(); round++) {
      for (boolean ui :
          round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
        Run run = runOnce(ui, args, options, options.getElements(), port, true);
        (ui ? on : off).add(run);
        log(
            "round %d, UI %s: %,.0f elements/s, %d UI reads",
            round, ui ? "on" : "off", run.elementsPerSecond(), run.scrapes());
      }
    }
    String report = report(options, off, on);
    ResultsFile.publish(report, ResultsFile.chosen(options, "webui-overhead.txt"), "webui");
  }

  private static void check(Options options) {
    if (options.getRuns() <= 0
        || options.getElements() <= 0
        || options.getWarmupElements() <= 0
        || options.getScrapeMillis() <= 0) {
      throw new IllegalArgumentException(
          "--runs, --elements, --warmupElements and --scrapeMillis must be positive; got "
              + options.getRuns()
              + ", "
              + options.getElements()
              + ", "
              + options.getWarmupElements()
              + ", "
              + options.getScrapeMillis());
    }
    if (options.getWebUi() != null) {
      throw new IllegalArgumentException(
          "--webUi is set by the benchmark (off for one run, on for the other); leave it out");
    }
  }

  /**
   * A port nobody listens on now; the first run with the UI starts the JVM's server there, and
   * later runs register with that server.
   */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * @param measured whether the UI server is up already (started by the warm-up), so the run with
   *     the UI must have been read
   */
  static Run runOnce(
      boolean ui, String[] args, Options benchmark, long elements, int port, boolean measured)
      throws Exception {
    Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
    options.setRunner(ArconRunner.class);
    options.setTss("off");
    options.setProgress("off");
    options.setWebUi(ui ? "on" : "off");
    options.setWebUiPort(port);
    String label = "keyed count, UI " + (ui ? "on" : "off");
    Pipeline pipeline = Pipeline.create(options);
    KeyedCountPipeline.build(pipeline, elements, benchmark.getKeys());
    TimedPipelineRun run;
    long scrapes = 0;
    if (ui) {
      try (UiScraper scraper =
          new UiScraper(
              URI.create("http://127.0.0.1:" + port + "/"), benchmark.getScrapeMillis())) {
        run = TimedPipelineRun.of(pipeline, label);
        scrapes = scraper.rounds();
        if (measured) {
          scraper.requireReads(run.seconds());
        }
      }
    } else {
      run = TimedPipelineRun.of(pipeline, label);
    }
    CountCheck.require(
        label,
        run.counter(KeyedCountPipeline.NAMESPACE, KeyedCountPipeline.KEYS),
        run.counter(KeyedCountPipeline.NAMESPACE, KeyedCountPipeline.COUNTED),
        Math.min(benchmark.getKeys(), elements),
        elements);
    return new Run(elements / run.seconds(), scrapes);
  }

  static String report(Options options, List<Run> off, List<Run> on) {
    double offMean = off.stream().mapToDouble(Run::elementsPerSecond).average().orElseThrow();
    double onMean = on.stream().mapToDouble(Run::elementsPerSecond).average().orElseThrow();
    double ratio = onMean / offMean;
    StringJoiner rounds = new StringJoiner(" ");
    for (int i = 0; i < on.size(); i++) {
      rounds.add(
          String.format(
              Locale.ROOT, "%.3f", on.get(i).elementsPerSecond() / off.get(i).elementsPerSecond()));
    }
    long scrapes = on.stream().mapToLong(Run::scrapes).sum();
    return String.format(
            Locale.ROOT,
            "WebUiOverheadBenchmark: keyed count, %,d elements, %,d keys, %s, parallelism %d, %d"
                + " interleaved round(s), UI read every %d ms, %d available processors, Java %s%n",
            options.getElements(),
            options.getKeys(),
            options.getStateBackend(),
            options.getParallelism(),
            options.getRuns(),
            options.getScrapeMillis(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"))
        + String.format(
            Locale.ROOT,
            "%14s %14s %8s  %s%n%,14.0f %,14.0f %8.3f  %s%n",
            "off mean el/s",
            "on mean el/s",
            "on/off",
            "per round",
            offMean,
            onMean,
            ratio,
            rounds)
        + String.format(
            Locale.ROOT,
            "UI reads during the runs with the UI: %d; the UI costs %.1f%% of throughput (mean)"
                + " [target <= 2%%: %s]%n",
            scrapes,
            (1 - ratio) * 100,
            ratio >= TARGET_RATIO ? "met" : "NOT met");
  }

  private static void log(String format, Object... args) {
    System.err.println("[webui] " + String.format(Locale.ROOT, format, args));
  }
}
