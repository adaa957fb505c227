package io.arcon.benchmarks.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.pipeline.PerElementStateBenchmark.Configuration;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PerElementStateBenchmarkTest {

  /** Each configuration in this JVM (Flink's RocksDB backend needs the child JVM: next test). */
  @ParameterizedTest
  @EnumSource(
      value = Configuration.class,
      names = {"ARCON_HEAP", "ARCON_ROCKSDB", "ARCON_LMDB", "FLINK_HEAP"})
  void everyConfigurationVerifiesItsCounts(Configuration configuration) throws Exception {
    double seconds = PerElementStateRun.runOnce(configuration, 100, 5_000, 2, null);
    assertTrue(seconds > 0);
  }

  /**
   * The whole benchmark tiny, every configuration in a child JVM of its own; Flink's RocksDB
   * backend runs there with frocksdbjni in place of our rocksdbjni.
   */
  @Test
  void theBenchmarkRunsEveryConfigurationInChildJvmsAndReportsRatios(@TempDir Path dir)
      throws Exception {
    PerElementStateBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(
                "--elements=3000",
                "--warmupElements=0",
                "--keys=50",
                "--runs=1",
                "--parallelism=2",
                "--childJvmOptions=-Xmx512m -XX:TieredStopAtLevel=1",
                "--resultsFile=" + dir.resolve("r.txt"))
            .as(PerElementStateBenchmark.Options.class);
    String report = PerElementStateBenchmark.run(options);
    for (Configuration c :
        List.of(
            Configuration.ARCON_HEAP,
            Configuration.FLINK_HEAP,
            Configuration.ARCON_ROCKSDB,
            Configuration.FLINK_ROCKSDB)) {
      assertTrue(report.contains(c.label), report);
    }
    assertTrue(report.contains("ratio arcon-heap / flink-heap, 50 keys"), report);
    assertTrue(report.contains("ratio arcon-rocksdb / flink-rocksdb, 50 keys"), report);
    // Every child also ran the short run (750 elements) that gives the steady-state rate.
    assertTrue(report.contains("each child also ran 750 elements before its measured run"), report);
    assertTrue(report.contains("steady-state ratio arcon-heap / flink-heap, 50 keys"), report);
  }

  @Test
  void flinkRocksDbGetsFlinksRocksDbInsteadOfOurs() throws Exception {
    List<String> classPath = Configuration.FLINK_ROCKSDB.classPath();
    assertTrue(classPath.stream().anyMatch(e -> e.contains("frocksdbjni-")), classPath.toString());
    assertFalse(
        classPath.stream()
            .anyMatch(e -> Path.of(e).getFileName().toString().startsWith("rocksdbjni-")),
        classPath.toString());
    assertTrue(
        Configuration.ARCON_ROCKSDB.classPath().stream()
            .anyMatch(e -> Path.of(e).getFileName().toString().startsWith("rocksdbjni-")));
  }

  @Test
  void badKeysAreRejected() {
    PerElementStateBenchmark.Options options =
        PipelineOptionsFactory.fromArgs("--keys=10,zero")
            .as(PerElementStateBenchmark.Options.class);
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> PerElementStateBenchmark.run(options));
    assertEquals("--keys must be comma-separated positive numbers, got 'zero'", error.getMessage());
  }

  /**
   * Flink's RocksDB gets the memory ArconRunner's rocksdb engine may use, unless told otherwise.
   */
  @Test
  void flinkManagedMemoryMatchesArconRunnersRocksDbMemory() {
    PerElementStateBenchmark.Options options =
        PipelineOptionsFactory.fromArgs(
                "--parallelism=2", "--childJvmOptions=-Xms4g -Xmx4g -XX:+AlwaysPreTouch")
            .as(PerElementStateBenchmark.Options.class);
    // Two 64 MiB block caches and an eighth of the 4 GiB heap for the row caches.
    assertEquals("640m", PerElementStateBenchmark.flinkManagedMemory(options));
    options.setChildJvmOptions("-Xmx1g -Xmx2048m");
    assertEquals("384m", PerElementStateBenchmark.flinkManagedMemory(options));
    options.setFlinkManagedMemory("1g");
    assertEquals("1g", PerElementStateBenchmark.flinkManagedMemory(options));
    options.setFlinkManagedMemory("matched");
    options.setChildJvmOptions("-Xmx4q");
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> PerElementStateBenchmark.flinkManagedMemory(options));
    assertEquals(
        "--childJvmOptions has -Xmx4q, which is not a JVM size (e.g. -Xmx4g)", error.getMessage());
  }
}
