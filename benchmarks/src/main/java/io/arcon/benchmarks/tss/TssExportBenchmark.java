package io.arcon.benchmarks.tss;

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
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.proto.AppSummary;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * What TSS costs a running pipeline and how fast it extracts, in one JVM (issue 13, item 8).
 *
 * <p><b>Throughput</b>: the per-key counter pipeline ({@link CounterPipeline}) over an
 * unbounded-style stream with event times and an advancing watermark ({@link CounterEvents}), with
 * TSS off, on (watermark-cut chains) and exporting the counter exactly ({@code --tssExport}), on
 * heap and rocksdb ({@link ThroughputConfiguration}). Each configuration runs a warm-up, then (in
 * rounds of all configurations) {@code --runs} measured runs, each timed from {@code run()} to the
 * end of {@code waitUntilFinish()} and verified from its output (one final count per key, adding up
 * to the elements).
 *
 * <p><b>Extraction</b>: {@link ExtractionMeasurement} on each of {@code --extractBackends}: a state
 * of {@code --extractKeys} keys, one version created while the pipeline runs, timed from CREATE to
 * commit.
 *
 * <p>All pipelines register with one embedded control plane, started by the first of them on a free
 * loopback port with a fresh temporary {@code --tssHome}.
 */
public final class TssExportBenchmark {

  /** Event time of the first element: a whole second, so version times are whole seconds. */
  static final long BASE_MILLIS = java.time.Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

  static final int MAX_DISORDER_MILLIS = 200;
  static final int WATERMARK_LAG_MILLIS = 500;

  private static final AtomicInteger APPS = new AtomicInteger();

  private TssExportBenchmark() {}

  /** Options of the benchmark; {@code --parallelism} etc. are ArconRunner's own. */
  public interface Options extends ArconPipelineOptions, SteadyStateOptions, ResultsFileOptions {
    // Exported on rocksdb the pipeline runs at about 50k elements/s on two cores: 3M keeps a whole
    // invocation within minutes.
    @Description("Elements of each measured throughput run")
    @Default.Long(3_000_000)
    long getElements();

    void setElements(long value);

    @Description("Elements of the warm-up run before each configuration's measured runs (0: none)")
    @Default.Long(1_000_000)
    long getWarmupElements();

    void setWarmupElements(long value);

    @Description("Distinct keys of the throughput runs")
    @Default.Integer(10_000)
    int getKeys();

    void setKeys(int value);

    @Description("Measured runs per configuration; the best and the mean are reported")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description(
        "Comma-separated throughput configurations: off, on, on-read, export, off-rocksdb,"
            + " export-rocksdb, off-lmdb, export-lmdb (all by default; empty: extraction only)")
    @Default.String("off,on,on-read,export,off-rocksdb,export-rocksdb,off-lmdb,export-lmdb")
    String getConfigurations();

    void setConfigurations(String value);

    @Description("Keys (= rows of the version) of the extraction measurement (0: skip it)")
    @Default.Integer(1_000_000)
    int getExtractKeys();

    void setExtractKeys(int value);

    @Description(
        "Elements of the extraction pipeline (at least --extractKeys, so every key is set)")
    @Default.Long(2_000_000)
    long getExtractElements();

    void setExtractElements(long value);

    @Description(
        "Versions extracted one after the other from each extraction pipeline (the first pays for"
            + " class loading and compilation; the later ones show a running app's steady state)")
    @Default.Integer(2)
    int getExtractVersions();

    void setExtractVersions(int value);

    @Description("Comma-separated state backends the extraction is measured on")
    @Default.String("heap,rocksdb")
    String getExtractBackends();

    void setExtractBackends(String value);
  }

  /**
   * Throughputs of one configuration's measured runs, and their steady-state rates (empty when not
   * measured; NaN for a run that gave none).
   */
  record Measurement(
      ThroughputConfiguration configuration, List<Double> rates, List<Double> steadyRates)
      implements MeasuredRates {
    Measurement(ThroughputConfiguration configuration, List<Double> rates) {
      this(configuration, rates, List.of());
    }
  }

  /** Everything one invocation measured. */
  record Results(List<Measurement> throughput, List<ExtractionMeasurement> extraction) {}

  public static void main(String[] args) throws Exception {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    Results results = run(args, options);
    String report = report(options, results);
    ResultsFile.publish(report, ResultsFile.chosen(options, "tss-export.txt"), "tss-export");
    // The embedded control plane's gRPC threads would keep the JVM alive.
    System.exit(0);
  }

  /** Runs every measurement {@code options} asks for, on one fresh embedded control plane. */
  static Results run(String[] args, Options options) throws Exception {
    check(options);
    List<ThroughputConfiguration> configurations =
        List.copyOf(
            new LinkedHashSet<>(ThroughputConfiguration.parseList(options.getConfigurations())));
    String endpoint = "127.0.0.1:" + freePort();
    Path home = Files.createTempDirectory("tss-export-bench-");
    log("TSS control plane at %s, home %s", endpoint, home);
    Map<String, TssClient> clients = new HashMap<>();
    try {
      // Warm-ups first, then the measured runs in rounds of every configuration: a drift of the
      // machine (JIT, GC, a neighbour) then touches all configurations alike, not the first one.
      for (ThroughputConfiguration configuration : configurations) {
        if (options.getWarmupElements() > 0) {
          log("%s: warm-up with %,d elements", configuration.label, options.getWarmupElements());
          runThroughput(
              configuration, args, endpoint, home, options.getWarmupElements(), options.getKeys());
        }
      }
      Map<ThroughputConfiguration, List<Double>> ratesByConfiguration = new LinkedHashMap<>();
      Map<ThroughputConfiguration, List<Double>> steadyByConfiguration = new LinkedHashMap<>();
      long shortElements = SteadyStateRate.shortElements(options.getElements());
      if (options.getSteadyState()) {
        // Not measured: the first run after the warm-ups may still carry the JIT compilers' work,
        // which would shorten nothing but the first short run and inflate its steady rate.
        for (ThroughputConfiguration configuration : configurations) {
          runThroughput(configuration, args, endpoint, home, shortElements, options.getKeys());
        }
      }
      for (int run = 1; run <= options.getRuns(); run++) {
        for (ThroughputConfiguration configuration : configurations) {
          steadyByConfiguration.computeIfAbsent(configuration, c -> new ArrayList<>());
          double shortSeconds =
              options.getSteadyState()
                  ? runThroughput(
                      configuration, args, endpoint, home, shortElements, options.getKeys())
                  : Double.NaN;
          double seconds =
              runThroughput(
                  configuration, args, endpoint, home, options.getElements(), options.getKeys());
          double rate = options.getElements() / seconds;
          ratesByConfiguration.computeIfAbsent(configuration, c -> new ArrayList<>()).add(rate);
          log(
              "%s: run %d: %,d elements in %.2f s = %,.0f elements/s; heap after GC %,d MB",
              configuration.label,
              run,
              options.getElements(),
              seconds,
              rate,
              TimedPipelineRun.usedHeapAfterGcMb());
          if (options.getSteadyState()) {
            double steady =
                SteadyStateRate.of(shortElements, shortSeconds, options.getElements(), seconds);
            steadyByConfiguration.get(configuration).add(steady);
            log(
                "%s: run %d: steady state %,.0f elements/s (short run: %,d elements in %.2f s)",
                configuration.label, run, steady, shortElements, shortSeconds);
          }
        }
      }
      List<Measurement> throughput = new ArrayList<>();
      ratesByConfiguration.forEach(
          (c, rates) -> throughput.add(new Measurement(c, rates, steadyByConfiguration.get(c))));

      List<ExtractionMeasurement> extraction = new ArrayList<>();
      if (options.getExtractKeys() > 0) {
        for (String backend : options.getExtractBackends().split(",")) {
          if (backend.isBlank()) {
            continue;
          }
          Options runOptions = freshOptions(args, endpoint, home);
          String app = "tss_extract_" + backend.trim() + "_" + APPS.incrementAndGet();
          log(
              "extraction on %s: %,d elements over %,d keys",
              backend.trim(), options.getExtractElements(), options.getExtractKeys());
          List<ExtractionMeasurement> versions =
              ExtractionMeasurement.run(
                  runOptions,
                  app,
                  backend.trim(),
                  options.getExtractElements(),
                  options.getExtractKeys(),
                  options.getExtractVersions(),
                  e -> clients.computeIfAbsent(e, TssExportBenchmark::connect));
          for (ExtractionMeasurement m : versions) {
            log(
                "extraction on %s, version %d: %,d rows, CREATE -> _COMMITTED %.3f s = %,.0f"
                    + " rows/s; part files %.3f s = %,.0f rows/s",
                m.backend(),
                m.version(),
                m.rows(),
                m.createToCommittedSeconds(),
                m.rowsPerSecond(),
                m.partFilesSeconds(),
                m.partFilesRowsPerSecond());
          }
          extraction.addAll(versions);
        }
      }
      return new Results(throughput, extraction);
    } finally {
      clients.values().forEach(TssClient::close);
    }
  }

  private static void check(Options options) {
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    if (options.getWarmupElements() < 0) {
      throw new IllegalArgumentException(
          "--warmupElements must not be negative (0 skips the warm-up), got "
              + options.getWarmupElements());
    }
    if (options.getExtractVersions() < 1) {
      throw new IllegalArgumentException(
          "--extractVersions must be at least 1, got " + options.getExtractVersions());
    }
    if (options.getExtractKeys() < 0) {
      throw new IllegalArgumentException(
          "--extractKeys must not be negative (0 skips the extraction), got "
              + options.getExtractKeys());
    }
    if (options.getExtractKeys() > 0 && options.getExtractElements() < options.getExtractKeys()) {
      throw new IllegalArgumentException(
          "--extractElements ("
              + options.getExtractElements()
              + ") must be at least --extractKeys ("
              + options.getExtractKeys()
              + "), so the extracted state has every key");
    }
  }

  /** One verified throughput run; returns its seconds. */
  static double runThroughput(
      ThroughputConfiguration configuration,
      String[] args,
      String endpoint,
      Path home,
      long elements,
      int keys) {
    Options options = freshOptions(args, endpoint, home);
    String app;
    if (configuration.readByTss) {
      // One app name for every run; each run is read by a TSS created as soon as it registers.
      app = READ_APP;
    } else {
      app = "tss_bench_" + configuration.name.replace('-', '_') + "_" + APPS.incrementAndGet();
    }
    options.setJobName(app);
    options.setStateBackend(configuration.backend);
    options.setTss(configuration.tss);
    if (configuration.export) {
      options.setTssExport(CounterPipeline.COUNTER);
    }
    CounterEvents.Shape shape =
        new CounterEvents.Shape(
            elements, keys, BASE_MILLIS, MAX_DISORDER_MILLIS, WATERMARK_LAG_MILLIS, Long.MAX_VALUE);
    Pipeline pipeline = Pipeline.create(options);
    CounterPipeline.build(pipeline, CounterEvents.of(shape));
    TimedPipelineRun run =
        TimedPipelineRun.of(
            pipeline,
            configuration.label,
            configuration.readByTss
                ? started -> readWhileItRuns(endpoint, started)
                : started -> {});
    verify(
        configuration.label,
        run.counter(CounterPipeline.NAMESPACE, CounterPipeline.KEYS),
        run.counter(CounterPipeline.NAMESPACE, CounterPipeline.COUNTED),
        elements,
        keys);
    return run.seconds();
  }

  /** The app of the runs whose state a TSS reads. */
  static final String READ_APP = "tss_bench_on_read";

  /**
   * Makes a TSS read {@link #READ_APP}'s counter while its run goes on: waits until the run has
   * registered (the control plane refuses a TSS over a run that finished, which the app's previous
   * run has), then replaces the TSS of the previous run. The app hears of the TSS at once and
   * records from then on, a few milliseconds into the run. The TSS has one version, after every
   * event time: the control plane asks for it when the run's input ends, so each run also extracts
   * the final state once (10k rows by default), as a reader would. A run that ends before it was
   * seen live (a tiny one) is not read, and says so.
   */
  private static void readWhileItRuns(String endpoint, PipelineResult run) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (TssClient tss = connect(endpoint)) {
      while (liveApp(tss) == null) {
        if (run.getState().isTerminal()) {
          log("%s: the run ended before it was seen live, so no TSS read it", READ_APP);
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              READ_APP + " did not register as a live app with the control plane within 30 s");
        }
        sleepMillis(2);
      }
      try {
        tss.execute("DROP TSS bench_reader;");
      } catch (TssClientException notThere) {
        // The first read run: nothing to drop.
      }
      try {
        tss.execute(
            "CREATE TSS bench_reader AS EXTRACT "
                + READ_APP
                + "."
                + CountPerKey.STATE
                + " AT '2100-01-01 00:00:00';");
      } catch (TssClientException finishedMeanwhile) {
        log(
            "%s: the run ended before its TSS was created, so it was not read: %s",
            READ_APP, finishedMeanwhile.getMessage());
      }
    }
  }

  /**
   * {@link #READ_APP} as the control plane lists it while this run is live: connected, input not
   * ended; null before the run has registered (the previous run's entry says finished).
   */
  private static AppSummary liveApp(TssClient tss) {
    List<AppSummary> apps;
    try {
      apps = tss.showApps();
    } catch (TssClientException notStarted) {
      return null; // the first pipeline of the invocation starts the embedded control plane
    }
    for (AppSummary app : apps) {
      if (app.getName().equals(READ_APP) && app.getConnected() && !app.hasFinishedAt()) {
        return app;
      }
    }
    return null;
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + READ_APP, e);
    }
  }

  /** Fails unless a run emitted one final count per key and the counts add up to the elements. */
  static void verify(String label, long keysSeen, long counted, long elements, int keys) {
    CountCheck.require(
        label, keysSeen, counted, CounterPipeline.distinctKeys(elements, keys), elements);
  }

  /** Options of one pipeline: the user's arguments, then the shared control plane. */
  private static Options freshOptions(String[] args, String endpoint, Path home) {
    Options options = PipelineOptionsFactory.fromArgs(args).as(Options.class);
    options.setRunner(ArconRunner.class);
    options.setTssEndpoint(endpoint);
    options.setTssHome(home.toString());
    return options;
  }

  private static TssClient connect(String endpoint) {
    int colon = endpoint.lastIndexOf(':');
    return TssClient.connect(
        endpoint.substring(0, colon), Integer.parseInt(endpoint.substring(colon + 1)), null);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The measured tables, the ratios against TSS off on the same backend, and the targets. */
  static String report(Options options, Results results) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "TssExportBenchmark: %,d elements, %,d keys, disorder < %d ms, watermark lag %d ms,"
                + " %d measured run(s) each, parallelism %d, %d available processors, Java %s%n",
            options.getElements(),
            options.getKeys(),
            MAX_DISORDER_MILLIS,
            WATERMARK_LAG_MILLIS,
            options.getRuns(),
            options.getParallelism(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    if (!results.throughput().isEmpty()) {
      boolean steady =
          RateTable.append(
              out,
              options.getElements(),
              48,
              16,
              results.throughput(),
              m -> m.configuration().label);
      for (Measurement m : results.throughput()) {
        Measurement baseline = find(results.throughput(), m.configuration().baseline());
        if (baseline == null || baseline == m) {
          continue;
        }
        double ratio = m.mean() / baseline.mean();
        out.append(
            String.format(
                Locale.ROOT,
                "ratio %s / %s: %.3f (mean), %.3f (best); cost %.1f%% of throughput%s%n",
                m.configuration().label,
                baseline.configuration().label,
                ratio,
                m.best() / baseline.best(),
                (1 - ratio) * 100,
                m.configuration().export
                    ? (ratio >= 0.9 ? " [target <= 10%: met]" : " [target <= 10%: NOT met]")
                    : ""));
        if (steady) {
          double steadyRatio = m.steadyMean() / baseline.steadyMean();
          out.append(
              String.format(
                  Locale.ROOT,
                  "steady-state ratio %s / %s: %.3f (mean), %.3f (best); cost %.1f%% of"
                      + " throughput%s%n",
                  m.configuration().label,
                  baseline.configuration().label,
                  steadyRatio,
                  m.steadyBest() / baseline.steadyBest(),
                  (1 - steadyRatio) * 100,
                  m.configuration().export
                      ? (steadyRatio >= 0.9 ? " [target <= 10%: met]" : " [target <= 10%: NOT met]")
                      : ""));
        }
      }
    }
    if (!results.extraction().isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "extraction (%,d elements over %,d keys, exact versions one after the other,"
                  + " pipeline running):%n",
              options.getExtractElements(),
              options.getExtractKeys()));
      out.append(
          String.format(
              Locale.ROOT,
              "%-10s %7s %10s %14s %14s %16s %14s%n",
              "backend",
              "version",
              "rows",
              "CREATE->commit",
              "rows/s",
              "part files (s)",
              "rows/s"));
      for (ExtractionMeasurement m : results.extraction()) {
        out.append(
            String.format(
                Locale.ROOT,
                "%-10s %7d %,10d %13.3fs %,14.0f %15.3fs %,14.0f%s%n",
                m.backend(),
                m.version(),
                m.rows(),
                m.createToCommittedSeconds(),
                m.rowsPerSecond(),
                m.partFilesSeconds(),
                m.partFilesRowsPerSecond(),
                m.rowsPerSecond() >= 1_000_000
                    ? " [target >= 1M rows/s: met]"
                    : " [target >= 1M rows/s: NOT met]"));
      }
    }
    return out.toString();
  }

  private static Measurement find(
      List<Measurement> measurements, ThroughputConfiguration configuration) {
    for (Measurement m : measurements) {
      if (m.configuration() == configuration) {
        return m;
      }
    }
    return null;
  }

  private static void log(String format, Object... args) {
    System.err.println("[tss-export] " + String.format(Locale.ROOT, format, args));
  }
}
