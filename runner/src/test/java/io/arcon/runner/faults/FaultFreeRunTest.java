package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.checkpointing.EpochMetrics;
import java.nio.file.Path;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The baseline of every fault test: without faults, with epochs every 25 ms, each backend writes
 * exactly the oracle's output (so the oracle is the fault-free output), and the source's marks are
 * finalized as epochs complete.
 */
class FaultFreeRunTest {

  @ParameterizedTest(name = "{0}")
  @FieldSource("io.arcon.runner.faults.FaultRuns#BACKENDS")
  void writesTheOraclesOutput(String backend, @TempDir(factory = MemoryTempDirs.class) Path dir) {
    DoFnFaults.clear();
    EventSource.HIGHEST_FINALIZED.set(-1);
    Path output = FaultRuns.outputDir(dir);
    long started = System.nanoTime();
    PipelineResult result =
        FaultRuns.runToCompletion(
            FaultRuns.options(backend, "fault_free_" + backend, dir), FaultRuns.STREAM);
    FaultRuns.assertExactlyOnce(FaultRuns.STREAM, output, "fault-free run on " + backend);
    long epochs = completedEpochs(result);
    System.out.printf(
        "fault-free backend=%s events=%s epochs=%d files=%d seconds=%.1f%n",
        backend,
        ExpectedOutput.kinds(FaultRuns.STREAM),
        epochs,
        SinkFiles.fileCount(output),
        (System.nanoTime() - started) / 1e9);
    // Heap and lmdb complete ~40 epochs here; rocksdb only a few (its synchronous snapshot part
    // takes ~200 ms per keyed instance on this 2-core machine), so the floor is what all reach.
    assertTrue(epochs >= 2, "epochs cut the stream, got " + epochs);
    assertTrue(
        EventSource.HIGHEST_FINALIZED.get() > 0,
        "checkpoint marks are finalized once their epoch completes");
  }

  static long completedEpochs(PipelineResult result) {
    long completed = 0;
    for (MetricResult<Long> counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(EpochMetrics.NAMESPACE, "completed"))
                    .build())
            .getCounters()) {
      completed += counter.getAttempted();
    }
    return completed;
  }
}
