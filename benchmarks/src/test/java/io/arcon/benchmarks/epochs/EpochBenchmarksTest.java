package io.arcon.benchmarks.epochs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both epoch benchmarks run whole at a tiny size, so their code cannot rot; no timings checked. */
class EpochBenchmarksTest {

  @TempDir Path temp;

  @Test
  void throughputBenchmarkRunsEveryConfigurationOffAndOnAndReadsTheEpochMetrics() throws Exception {
    Path results = temp.resolve("throughput.txt");
    String[] args = {
      "--parallelism=2",
      "--runs=1",
      "--elements=20000",
      "--warmupElements=0",
      "--keys=100",
      // Short enough that every run with epochs spans several of them.
      "--epochIntervalMillis=5",
      "--checkpointDir=" + temp.resolve("checkpoints"),
      "--resultsFile=" + results
    };
    EpochThroughputBenchmark.main(args);

    String report = Files.readString(results, StandardCharsets.UTF_8);
    for (ThroughputConfiguration c : ThroughputConfiguration.ALL) {
      assertTrue(report.contains("\n" + c.name() + " "), c.name() + " missing in\n" + report);
    }
    assertTrue(report.contains("keyed-count-rocksdb: epochs cost "), report);
    // Each run's checkpoint directory is removed after it.
    try (var left = Files.list(temp.resolve("checkpoints"))) {
      assertEquals(0, left.count());
    }
  }

  @Test
  void runsWithEpochsCountCompletedEpochsAndRunsWithoutNone() throws Exception {
    String[] args = {
      "--parallelism=2",
      "--runs=2",
      // Long enough for many epoch intervals: at 20,000 elements a fast run could end before its
      // first epoch completed (seen once in CI: completed=0).
      "--elements=400000",
      "--warmupElements=0",
      "--keys=50",
      "--epochIntervalMillis=5",
      "--configurations=counter-heap"
    };
    EpochThroughputBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(args).as(EpochThroughputBenchmark.Options.class);
    List<EpochThroughputBenchmark.Measurement> measurements =
        EpochThroughputBenchmark.run(args, options);

    assertEquals(1, measurements.size());
    EpochThroughputBenchmark.Measurement m = measurements.get(0);
    assertEquals(2, m.off().size());
    assertEquals(2, m.on().size());
    for (EpochThroughputBenchmark.Run off : m.off()) {
      assertEquals(EpochStats.NONE, off.epochs());
    }
    EpochStats epochs = m.epochs();
    assertTrue(epochs.completed() > 0, epochs.toString());
    assertTrue(epochs.sizeSumBytes() > 0 && epochs.sizeMaxBytes() > 0, epochs.toString());
    assertEquals(2, m.roundRatios().size());
  }

  @Test
  void snapshotBenchmarkSnapshotsRestoresAndVerifiesEveryEngine() throws Exception {
    Path results = temp.resolve("snapshot.txt");
    String[] args = {
      "--stateBytes=256000",
      "--runs=2",
      "--rewriteStride=10",
      "--workDir=" + temp.resolve("work"),
      "--resultsFile=" + results
    };
    SnapshotBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(args).as(SnapshotBenchmark.Options.class);
    List<EngineMeasurement> measurements = SnapshotBenchmark.run(options);

    SyntheticRows rows = SyntheticRows.ofSize(256_000, 120);
    assertEquals(2000, rows.rows());
    assertEquals(
        StateBackends.ENGINES, measurements.stream().map(EngineMeasurement::engine).toList());
    for (EngineMeasurement m : measurements) {
      assertEquals(2, m.snapshots().size());
      assertEquals(2, m.restoreSeconds().size());
      for (SnapshotMeasurement s : m.snapshots()) {
        // The values are random bytes: no engine can store them in less.
        assertTrue(s.bytesOnDisk() >= rows.rows() * 120, m.engine() + ": " + s);
      }
    }
    try (var left = Files.list(temp.resolve("work"))) {
      assertEquals(0, left.count(), "the work directory is cleaned up");
    }

    SnapshotBenchmark.main(args);
    String report = Files.readString(results, StandardCharsets.UTF_8);
    assertTrue(report.contains("2,000 rows of 8-byte key + 120-byte value"), report);
  }

  @Test
  void restoredRowsAreCheckedOneByOne() {
    SyntheticRows rows = new SyntheticRows(500, 16);
    try (StateBackend backend = StateBackends.open(StateBackendConfig.of("heap", null))) {
      StateTable table = backend.table("t");
      rows.fill(table);
      rows.verify(table);

      table.put(SyntheticRows.key(7), rows.value(8));
      assertThrows(IllegalStateException.class, () -> rows.verify(table));
      table.put(SyntheticRows.key(7), rows.value(7));
      rows.verify(table);

      table.delete(SyntheticRows.key(499));
      IllegalStateException missing =
          assertThrows(IllegalStateException.class, () -> rows.verify(table));
      assertEquals("restored table t has 499 rows, expected 500", missing.getMessage());
    }
  }

  @Test
  void runSizesAreRoundedToTwoSignificantDigits() {
    assertEquals(12_000_000, EpochThroughputBenchmark.twoSignificantDigits(12_345_678.9));
    assertEquals(990, EpochThroughputBenchmark.twoSignificantDigits(987.0));
    assertEquals(1, EpochThroughputBenchmark.twoSignificantDigits(0.2));
  }

  @Test
  void aCheckpointingIntervalOfItsOwnIsRefused() {
    String[] args = {"--checkpointingInterval=1000"};
    EpochThroughputBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(args).as(EpochThroughputBenchmark.Options.class);
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> EpochThroughputBenchmark.run(args, options));
    assertTrue(error.getMessage().contains("--epochIntervalMillis"), error.getMessage());
  }

  @Test
  void unknownNamesAreRefusedWithTheValidOnes() {
    IllegalArgumentException configuration =
        assertThrows(
            IllegalArgumentException.class,
            () -> ThroughputConfiguration.parseList("keyed-count-heap,counter-mem"));
    assertTrue(
        configuration
            .getMessage()
            .startsWith(
                "Unknown configuration 'counter-mem' in --configurations; use a comma-separated"
                    + " subset of keyed-count-heap,keyed-count-rocksdb,keyed-count-lmdb,"),
        configuration.getMessage());

    String[] args = {"--engines=heap,redis"};
    SnapshotBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(args).as(SnapshotBenchmark.Options.class);
    IllegalArgumentException engine =
        assertThrows(IllegalArgumentException.class, () -> SnapshotBenchmark.run(options));
    assertEquals(
        "Unknown engine 'redis' in --engines; use a comma-separated subset of heap,rocksdb,lmdb",
        engine.getMessage());
  }
}
