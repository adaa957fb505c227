package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.checkpointing.EpochMetrics;
import io.arcon.runtime.epoch.EpochFaultInjector;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *
 * <p>The timeout is far above what an unheld epoch takes even where every epoch fsyncs to a slow
 * disk (over a second on one CI machine without room in /dev/shm), so only the held epoch, and the
 * ones queued behind its held nodes, can run past it. A timeout near an ordinary epoch's duration
 * made the test depend on the machine: with 40 ms, every epoch of a run on disk was given up.
 */
class EpochTimeoutTest {
  private static final long TIMEOUT_MILLIS = 3_000;

  /** The epoch that is held; the first one completes before it. */
  private static final long HELD_EPOCH = 2;

  /**
   * Holds one node (the first to reach it) before its snapshot of {@link #HELD_EPOCH}: the epoch
   * cannot complete without it. One only, since held nodes may share a dispatcher thread and their
   * holds would add up.
   */
  private static final class SlowSnapshots implements EpochFaultInjector {
    private final AtomicBoolean held = new AtomicBoolean();

    @Override
    public void beforeSnapshot(String vertexName, int instance, long epoch) throws Exception {
      if (epoch == HELD_EPOCH && held.compareAndSet(false, true)) {
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
