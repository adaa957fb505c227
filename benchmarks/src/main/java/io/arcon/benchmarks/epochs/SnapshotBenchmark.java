package io.arcon.benchmarks.epochs;

import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.ResultsFileOptions;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateTable;
import io.arcon.state.snapshot.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Snapshot time and size of a large state per engine (issue 14, item 8), through the {@link
 * StateBackend} API an epoch uses: a backend is filled with {@code --stateBytes} of {@link
 * SyntheticRows} in one table, then snapshotted {@code --runs} times with {@code snapshotAsync}
 * (before every snapshot after the first, one row in {@code --rewriteStride} is written again, so
 * each snapshot has fresh writes to take, as an epoch does). Each snapshot reports the synchronous
 * part (until {@code snapshotAsync} returns: what an epoch holds the node for), the total (until
 * its future completes) and the size of its directory. The last snapshot is then restored {@code
 * --runs} times into a fresh backend of the same engine (a restarted job's situation; the source
 * backend is disposed first) and the last restore is verified row by row.
 */
public final class SnapshotBenchmark {

  private SnapshotBenchmark() {}

  /** The table the rows go to. */
  static final String TABLE = "state";

  /** Options of the snapshot benchmark. */
  public interface Options extends ResultsFileOptions {
    @Description("Bytes of keys and values per engine (default 1 GiB)")
    @Default.Long(1L << 30)
    long getStateBytes();

    void setStateBytes(long value);

    @Description("Bytes of each row's value (the key is 8 bytes); rows = stateBytes / (8 + this)")
    @Default.Integer(120)
    int getValueBytes();

    void setValueBytes(int value);

    @Description("Comma-separated engines: heap, rocksdb, lmdb (all by default)")
    @Default.String("heap,rocksdb,lmdb")
    String getEngines();

    void setEngines(String value);

    @Description("Snapshots per engine, and restores of the last one")
    @Default.Integer(3)
    int getRuns();

    void setRuns(int value);

    @Description("Before each snapshot after the first, rewrite one row in this many")
    @Default.Integer(100)
    int getRewriteStride();

    void setRewriteStride(int value);

    @Description(
        "Directory for the backends and snapshots (a fresh subdirectory is made and deleted"
            + " afterwards; default: the temp dir). Put it on the disk that would hold checkpoints.")
    String getWorkDir();

    void setWorkDir(String value);
  }

  public static void main(String[] args) throws IOException {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    List<EngineMeasurement> measurements = run(options);
    String report = report(options, measurements);
    ResultsFile.publish(report, ResultsFile.chosen(options, "epochs-snapshot.txt"), "snapshot");
  }

  /** Measures every engine of {@code --engines}, one after the other. */
  static List<EngineMeasurement> run(Options options) throws IOException {
    SyntheticRows rows = SyntheticRows.ofSize(options.getStateBytes(), options.getValueBytes());
    if (options.getRuns() <= 0) {
      throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
    }
    if (options.getRewriteStride() <= 0) {
      throw new IllegalArgumentException(
          "--rewriteStride must be positive (1 rewrites every row), got "
              + options.getRewriteStride());
    }
    List<String> engines = new ArrayList<>();
    for (String engine : options.getEngines().split(",")) {
      String trimmed = engine.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (!StateBackends.ENGINES.contains(trimmed)) {
        throw new IllegalArgumentException(
            "Unknown engine '"
                + trimmed
                + "' in --engines; use a comma-separated subset of "
                + String.join(",", StateBackends.ENGINES));
      }
      engines.add(trimmed);
    }
    if (engines.isEmpty()) {
      throw new IllegalArgumentException(
          "--engines is empty; use a comma-separated subset of "
              + String.join(",", StateBackends.ENGINES));
    }
    String workDir = options.getWorkDir();
    Path base =
        workDir == null || workDir.isBlank()
            ? Path.of(System.getProperty("java.io.tmpdir"))
            : Files.createDirectories(Path.of(workDir));
    List<EngineMeasurement> measurements = new ArrayList<>();
    for (String engine : engines) {
      Path root = Files.createTempDirectory(base, "arcon-snapshot-bench-" + engine + "-");
      try {
        measurements.add(measure(engine, rows, options, root));
      } finally {
        FileTrees.deleteRecursively(root);
      }
    }
    return measurements;
  }

  private static EngineMeasurement measure(
      String engine, SyntheticRows rows, Options options, Path root) {
    List<SnapshotMeasurement> snapshots = new ArrayList<>();
    SnapshotHandle last = null;
    double fillSeconds;
    long approximateBytes;
    StateBackend backend = StateBackends.open(StateBackendConfig.of(engine, root.resolve("live")));
    try {
      StateTable table = backend.table(TABLE);
      log("%s: filling %,d rows (%,d MB)", engine, rows.rows(), rows.bytes() >> 20);
      long start = System.nanoTime();
      rows.fill(table);
      fillSeconds = seconds(start);
      approximateBytes = backend.approximateSizeBytes();
      log(
          "%s: filled in %.1f s (%,.0f rows/s); the backend estimates %,d MB",
          engine, fillSeconds, rows.rows() / fillSeconds, approximateBytes >> 20);
      for (int run = 1; run <= options.getRuns(); run++) {
        if (run > 1) {
          rows.rewrite(table, run, options.getRewriteStride());
        }
        if (last != null) {
          FileTrees.deleteRecursively(last.directory());
        }
        Path directory = root.resolve("snapshot-" + run);
        long snapshotStart = System.nanoTime();
        CompletableFuture<SnapshotHandle> future = backend.snapshotAsync(run, directory);
        double sync = seconds(snapshotStart);
        last = future.join();
        double total = seconds(snapshotStart);
        long[] size = sizeOnDisk(directory);
        snapshots.add(new SnapshotMeasurement(run, sync, total, size[0], size[1]));
        log(
            "%s: snapshot %d: sync %.3f s, total %.3f s, %,d MB in %d files",
            engine, run, sync, total, size[0] >> 20, size[1]);
      }
    } finally {
      // A restarted job restores into fresh backends; disposing also keeps heap's memory for them.
      backend.dispose();
    }

    List<Double> restores = new ArrayList<>();
    double verifySeconds = 0;
    for (int run = 1; run <= options.getRuns(); run++) {
      StateBackend restored =
          StateBackends.open(StateBackendConfig.of(engine, root.resolve("restored-" + run)));
      try {
        long start = System.nanoTime();
        restored.restore(last);
        double seconds = seconds(start);
        restores.add(seconds);
        log("%s: restore %d: %.3f s", engine, run, seconds);
        if (run == options.getRuns()) {
          long verifyStart = System.nanoTime();
          rows.verify(restored.table(TABLE));
          verifySeconds = seconds(verifyStart);
          log("%s: every restored row checked in %.1f s", engine, verifySeconds);
        }
      } finally {
        restored.dispose();
      }
    }
    return new EngineMeasurement(
        engine, fillSeconds, approximateBytes, snapshots, restores, verifySeconds);
  }

  /** Total bytes and number of the regular files under {@code directory}. */
  private static long[] sizeOnDisk(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      long[] bytesAndFiles = new long[2];
      files
          .filter(Files::isRegularFile)
          .forEach(
              f -> {
                try {
                  bytesAndFiles[0] += Files.size(f);
                  bytesAndFiles[1]++;
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      return bytesAndFiles;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot measure the snapshot at " + directory, e);
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** One line per snapshot, one per engine for fill and restore. */
  static String report(Options options, List<EngineMeasurement> measurements) {
    SyntheticRows rows = SyntheticRows.ofSize(options.getStateBytes(), options.getValueBytes());
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "SnapshotBenchmark: %,d rows of 8-byte key + %d-byte value = %,d MB per engine, one"
                + " table; %d snapshot(s) each (1 row in %d rewritten before each after the first),"
                + " %d available processors, max heap %,d MB, Java %s%n",
            rows.rows(),
            options.getValueBytes(),
            rows.bytes() >> 20,
            options.getRuns(),
            options.getRewriteStride(),
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory() >> 20,
            System.getProperty("java.version")));
    out.append(
        String.format(
            Locale.ROOT,
            "%-8s %4s %10s %10s %12s %7s%n",
            "engine",
            "run",
            "sync s",
            "total s",
            "size MB",
            "files"));
    for (EngineMeasurement m : measurements) {
      for (SnapshotMeasurement s : m.snapshots()) {
        out.append(
            String.format(
                Locale.ROOT,
                "%-8s %4d %10.3f %10.3f %,12.1f %7d%n",
                m.engine(),
                s.run(),
                s.syncSeconds(),
                s.totalSeconds(),
                s.bytesOnDisk() / 1048576.0,
                s.files()));
      }
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%-8s %10s %12s %14s %-26s %10s%n",
            "engine",
            "fill s",
            "fill rows/s",
            "estimate MB",
            "restore s (each run)",
            "verify s"));
    for (EngineMeasurement m : measurements) {
      StringJoiner restores = new StringJoiner(" ");
      for (double r : m.restoreSeconds()) {
        restores.add(String.format(Locale.ROOT, "%.3f", r));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-8s %10.1f %,12.0f %,14d %-26s %10.1f%n",
              m.engine(),
              m.fillSeconds(),
              rows.rows() / m.fillSeconds(),
              m.approximateBytes() >> 20,
              restores,
              m.verifySeconds()));
    }
    return out.toString();
  }

  private static void log(String format, Object... args) {
    System.err.println("[snapshot] " + String.format(Locale.ROOT, format, args));
  }
}
