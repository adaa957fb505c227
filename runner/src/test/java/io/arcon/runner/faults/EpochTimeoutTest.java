package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.checkpointing.EpochMetrics;
import io.arcon.runtime.epoch.EpochFaultInjector;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Epochs that run past {@code --checkpointTimeoutMillis} are given up and the job goes on: a node
 * that reaches a given-up epoch's marker only afterwards (here: one held up before its snapshot,
 * past the timeout) forwards the marker and writes nothing. With no restarts allowed, the job must
 * still end DONE with exactly the fault-free output, having completed some epochs and given up
 * others.
 */
class EpochTimeoutTest {
  private static final long TIMEOUT_MILLIS = 40;

  /** Holds the first instance of every vertex before its snapshot of every third epoch. */
  private static final class SlowSnapshots implements EpochFaultInjector {
    private final Set<Long> held = new HashSet<>();

    @Override
    public void beforeSnapshot(String vertexName, int instance, long epoch) throws Exception {
      if (instance == 0 && epoch % 3 == 0) {
        synchronized (held) {
          held.add(epoch);
        }
        Thread.sleep(2 * TIMEOUT_MILLIS);
      }
    }

    @Override
    public void beforeAcknowledge(String vertexName, int instance, long epoch) {}
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("io.arcon.runner.faults.FaultRuns#BACKENDS")
  void epochsGivenUpOnTimeoutDoNotFailTheJob(
      String backend, @TempDir(factory = MemoryTempDirs.class) Path dir) {
    DoFnFaults.clear();
    FaultPipelineMain.Options options = FaultRuns.options(backend, "epoch_timeout_" + backend, dir);
    options.setCheckpointTimeoutMillis(TIMEOUT_MILLIS);
    options.setNumberOfExecutionRetries(0);
    options.setEpochFaultInjector(new SlowSnapshots());

    PipelineResult result = FaultRuns.runToCompletion(options, FaultRuns.STREAM);

    FaultRuns.assertExactlyOnce(
        FaultRuns.STREAM, FaultRuns.outputDir(dir), "epochs timing out on " + backend);
    long givenUp = epochCounter(result, "givenUp");
    long completed = epochCounter(result, "completed");
    assertTrue(givenUp > 0, "epochs given up: " + givenUp);
    assertTrue(completed > 0, "epochs completed: " + completed);
  }

  private static long epochCounter(PipelineResult result, String name) {
    long sum = 0;
    for (var counter :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(EpochMetrics.NAMESPACE, name))
                    .build())
            .getCounters()) {
      sum += counter.getAttempted();
    }
    return sum;
  }
}
