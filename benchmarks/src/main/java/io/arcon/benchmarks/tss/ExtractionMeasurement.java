package io.arcon.benchmarks.tss;

import io.arcon.benchmarks.BenchmarkCounters;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.proto.AppSummary;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.joda.time.Duration;

/**
 * Extraction speed of one exported state of a running pipeline: the counter pipeline reads its
 * whole stream, then its source holds the watermark past the version time T behind a gate, so the
 * pipeline is still running with every key's count complete. The benchmark then creates
 * single-version TSSs {@code AT T}, one after the other (the first pays for loading the writer's
 * classes and compiling the read path, the later ones show a running app's steady state), and times
 * each from the CREATE statement to the version's {@code _COMMITTED} marker; while it waits it
 * watches the state's Parquet part files, so it also reports the agent's extraction and write time
 * (the first part file appears, the last one is written). The committed file is read back with
 * DuckDB and checked against the stream (one row per key, the counts add up to the elements), then
 * the gate opens and the pipeline's own result is checked.
 *
 * @param version 1 for the app's first extracted version, 2 for the next, ...
 * @param rows rows of the committed version (distinct keys)
 * @param createToCommittedSeconds from the CREATE statement to {@code _COMMITTED}
 * @param partFilesSeconds from the first part file seen to the last part file's modification time
 */
public record ExtractionMeasurement(
    String backend,
    int version,
    long rows,
    double createToCommittedSeconds,
    double partFilesSeconds) {

  private static final DateTimeFormatter TSS_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** How often the wait looks at the version's folder: the resolution of the timing. */
  private static final long POLL_MILLIS = 2;

  private static final long READY_TIMEOUT_MILLIS = 10 * 60_000;

  /** Rows per second from CREATE to commit. */
  public double rowsPerSecond() {
    return rows / createToCommittedSeconds;
  }

  /** Rows per second of the agent's extraction and Parquet write alone. */
  public double partFilesRowsPerSecond() {
    return rows / partFilesSeconds;
  }

  /**
   * Runs one gated pipeline exporting its counter on {@code backend} and measures {@code versions}
   * versions of it, one after the other.
   *
   * @param options fresh options for the run (TSS endpoint, home and parallelism already set)
   */
  public static List<ExtractionMeasurement> run(
      ArconPipelineOptions options,
      String app,
      String backend,
      long elements,
      int keys,
      int versions,
      Function<String, TssClient> clientForEndpoint)
      throws Exception {
    long base = TssExportBenchmark.BASE_MILLIS;
    long versionMillis = ceilToSecond(base + elements);
    CounterEvents.Shape shape =
        new CounterEvents.Shape(
            elements,
            keys,
            base,
            TssExportBenchmark.MAX_DISORDER_MILLIS,
            TssExportBenchmark.WATERMARK_LAG_MILLIS,
            versionMillis + 1_000);
    options.setRunner(ArconRunner.class);
    options.setJobName(app);
    options.setStateBackend(backend);
    options.setTss("on");
    options.setTssExport(CounterPipeline.COUNTER);
    // The whole stream must stay extractable: its event time spans elements milliseconds.
    options.setStateHistory(java.time.Duration.ofMillis(elements + 3_600_000L).toString());

    String gateId = app + "-gate";
    CountDownLatch gate = new CountDownLatch(1);
    Pipeline pipeline = Pipeline.create(options);
    CounterPipeline.build(pipeline, CounterEvents.gated(shape, gateId, gate));
    PipelineResult result = pipeline.run();
    try {
      TssClient tss = clientForEndpoint.apply(options.getTssEndpoint());
      awaitWatermark(tss, app, shape.holdWatermarkMillis(), result);

      List<ExtractionMeasurement> measured = new ArrayList<>();
      for (int version = 1; version <= versions; version++) {
        measured.add(
            measureVersion(
                tss, app, app + "_v" + version, backend, version, elements, keys, result));
      }
      gate.countDown();
      PipelineResult.State state = result.waitUntilFinish(Duration.standardMinutes(10));
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException(app + " ended in state " + state);
      }
      TssExportBenchmark.verify(
          app,
          BenchmarkCounters.attempted(result, CounterPipeline.NAMESPACE, CounterPipeline.KEYS),
          BenchmarkCounters.attempted(result, CounterPipeline.NAMESPACE, CounterPipeline.COUNTED),
          elements,
          keys);
      return measured;
    } finally {
      gate.countDown();
      CounterEvents.removeGate(gateId);
      if (result.getState() == PipelineResult.State.RUNNING) {
        result.cancel();
      }
    }
  }

  /** Creates the single-version TSS {@code tssName} over the gated app and measures its version. */
  private static ExtractionMeasurement measureVersion(
      TssClient tss,
      String app,
      String tssName,
      String backend,
      int version,
      long elements,
      int keys,
      PipelineResult result)
      throws Exception {
    long versionMillis = ceilToSecond(TssExportBenchmark.BASE_MILLIS + elements);
    Path versionDir = versionDir(tss, tssName, versionMillis);
    Path stateDir = versionDir.resolve(app).resolve(CountPerKey.STATE);
    Path committed = versionDir.resolve("_COMMITTED");
    Map<Path, Long> firstSeen = new HashMap<>();

    long created = System.nanoTime();
    tss.execute(
        "CREATE TSS "
            + tssName
            + " AS EXTRACT "
            + app
            + "."
            + CountPerKey.STATE
            + " AT '"
            + TSS_TIME.format(Instant.ofEpochMilli(versionMillis))
            + "' TIME ZONE 'UTC';");
    long createdWallMillis = System.currentTimeMillis() - (System.nanoTime() - created) / 1_000_000;
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
    while (!Files.exists(committed)) {
      watchPartFiles(stateDir, firstSeen);
      if (result.getState() == PipelineResult.State.FAILED) {
        result.waitUntilFinish(); // throws the pipeline's failure
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            committed + " was not written within 10 minutes: " + tss.describeTss(tssName));
      }
      Thread.sleep(POLL_MILLIS);
    }
    double createToCommitted = (System.nanoTime() - created) / 1e9;
    watchPartFiles(stateDir, firstSeen);

    long expectedRows = CounterPipeline.distinctKeys(elements, keys);
    verifyVersion(stateDir, expectedRows, elements, versionMillis);
    double partFiles = partFilesSeconds(firstSeen, createdWallMillis);
    return new ExtractionMeasurement(backend, version, expectedRows, createToCommitted, partFiles);
  }

  /** Waits until the app reported a watermark at or past {@code millis}: its state is complete. */
  private static void awaitWatermark(TssClient tss, String app, long millis, PipelineResult job)
      throws Exception {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
    while (true) {
      try {
        for (AppSummary s : tss.showApps()) {
          if (s.getName().equals(app)
              && s.getConnected()
              && s.hasWatermark()
              && s.getWatermark().getSeconds() * 1000 + s.getWatermark().getNanos() / 1_000_000
                  >= millis) {
            return;
          }
        }
      } catch (RuntimeException notYet) {
        // The embedded control plane is still starting.
      }
      if (job.getState() == PipelineResult.State.FAILED) {
        job.waitUntilFinish(); // throws the pipeline's failure
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "app " + app + " did not report a watermark at " + Instant.ofEpochMilli(millis));
      }
      Thread.sleep(10);
    }
  }

  private static Path versionDir(TssClient tss, String tssName, long versionMillis) {
    String lake = tss.serverInfo().getLake();
    Path root = lake.startsWith("file:") ? Path.of(URI.create(lake)) : Path.of(lake);
    return root.resolve(tssName).resolve("version=" + Instant.ofEpochMilli(versionMillis));
  }

  private static void watchPartFiles(Path stateDir, Map<Path, Long> firstSeen) throws IOException {
    if (!Files.isDirectory(stateDir)) {
      return;
    }
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(stateDir, "part-*.parquet")) {
      long now = System.currentTimeMillis();
      for (Path part : parts) {
        firstSeen.putIfAbsent(part, now);
      }
    }
  }

  /**
   * From the first part file's appearance to the last one's modification time. A file that was
   * already complete when first seen (written between two polls) counts from the CREATE instead.
   */
  private static double partFilesSeconds(Map<Path, Long> firstSeen, long createdWallMillis)
      throws IOException {
    if (firstSeen.isEmpty()) {
      throw new IllegalStateException("the committed version has no part-*.parquet file");
    }
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (Map.Entry<Path, Long> e : firstSeen.entrySet()) {
      long written = Files.getLastModifiedTime(e.getKey()).toMillis();
      long seen = e.getValue() >= written ? createdWallMillis : e.getValue();
      start = Math.min(start, seen);
      end = Math.max(end, written);
    }
    return Math.max(end - start, 1) / 1000.0;
  }

  /** Reads the committed files back with DuckDB (not with the project's reader) and checks them. */
  static void verifyVersion(Path stateDir, long expectedRows, long elements, long versionMillis)
      throws SQLException {
    String glob = stateDir.resolve("part-*.parquet").toString().replace("'", "''");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*), count(DISTINCT key), sum(value), max(epoch_ms(updated_at))"
                    + " FROM read_parquet('"
                    + glob
                    + "')")) {
      rs.next();
      long rows = rs.getLong(1);
      long distinct = rs.getLong(2);
      long sum = rs.getLong(3);
      long lastUpdate = rs.getLong(4);
      if (rows != expectedRows || distinct != expectedRows || sum != elements) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "the version in %s is wrong: %d rows over %d keys adding up to %d, expected %d rows"
                    + " adding up to %d",
                stateDir,
                rows,
                distinct,
                sum,
                expectedRows,
                elements));
      }
      if (lastUpdate >= versionMillis) {
        throw new IllegalStateException(
            "the version in " + stateDir + " holds an update at or after its version time");
      }
    }
  }

  private static long ceilToSecond(long millis) {
    return Math.floorDiv(millis + 999, 1000) * 1000;
  }
}
