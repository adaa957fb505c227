package io.arcon.runner.faults;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * A failure planned inside a DoFn once a run has committed some epochs, for tests of what a restart
 * or resume from such an epoch restores: the DoFn calls {@link #slowDownAndMaybeFail} per element.
 */
final class FailAfterEpochs {
  /** Complete epochs before the failure: the first may be taken before the source read anything. */
  static final long EPOCHS = 3;

  private final Path jobCheckpoints;
  private final long failFrom;
  private final AtomicBoolean failed = new AtomicBoolean();

  /**
   * @param jobCheckpoints the job's checkpoint directory, watched for complete epochs
   * @param failFrom the failure comes at the first element at or past this one once {@link #EPOCHS}
   *     epochs are complete
   */
  FailAfterEpochs(Path jobCheckpoints, long failFrom) {
    this.jobCheckpoints = jobCheckpoints;
    this.failFrom = failFrom;
  }

  /** Whether the planned failure was thrown. */
  boolean failed() {
    return failed.get();
  }

  /**
   * Sleeps a millisecond every 250 elements (so that epochs complete while the source reads) and
   * throws once, at the first element past {@code failFrom} after {@link #EPOCHS} epochs.
   */
  void slowDownAndMaybeFail(long element) throws InterruptedException {
    if (element % 250 == 0) {
      Thread.sleep(1);
    }
    if (element >= failFrom
        && !failed.get()
        && CheckpointDirs.newestCompleteEpoch(jobCheckpoints) >= EPOCHS
        && failed.compareAndSet(false, true)) {
      throw new IllegalStateException("planned failure at " + element);
    }
  }

  /**
   * Options of an in-process run at parallelism 2 with epochs every 50 ms into {@code checkpoints},
   * without TSS or the web UI.
   */
  static ArconPipelineOptions options(String jobName, Path checkpoints, int retries) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setParallelism(2);
    options.setTss("off");
    options.setWebUi("off");
    options.setJobName(jobName);
    options.setCheckpointingInterval(50L);
    options.setCheckpointDir(checkpoints.toString());
    options.setNumberOfExecutionRetries(retries);
    options.setExecutionRetryDelay(5L);
    return options;
  }
}
