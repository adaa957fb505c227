package io.arcon.runner.checkpointing;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checked form of {@link CheckpointingOptions}: refuses a bad value at {@code run()} with a
 * message naming the option and what it expects, and resolves the defaults.
 *
 * @param intervalMillis epoch interval, or -1 when checkpointing is off
 * @param checkpointDir where checkpoints go (also without checkpointing: unused then)
 * @param restoreFrom the checkpoint to start from, or null
 */
public record CheckpointSettings(
    long intervalMillis,
    Path checkpointDir,
    int retainedCheckpoints,
    long timeoutMillis,
    int retries,
    long retryDelayMillis,
    Path restoreFrom) {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointSettings.class);

  static final long DEFAULT_TIMEOUT_MILLIS = 10 * 60 * 1000L;
  static final int DEFAULT_RETRIES_WITH_CHECKPOINTS = 3;
  static final long DEFAULT_RETRY_DELAY_MILLIS = 1000L;

  public boolean enabled() {
    return intervalMillis > 0;
  }

  /**
   * @param stateDir {@code --stateDir}, or null
   */
  public static CheckpointSettings of(CheckpointingOptions options, String stateDir) {
    long interval = orDefault(options.getCheckpointingInterval(), -1L);
    if (interval == 0 || interval < -1) {
      throw new IllegalArgumentException(
          "--checkpointingInterval must be a positive number of milliseconds (or -1 for off); got "
              + interval);
    }
    int retained = options.getRetainedCheckpoints() == null ? 3 : options.getRetainedCheckpoints();
    if (retained < 1) {
      throw new IllegalArgumentException(
          "--retainedCheckpoints must be at least 1 (the newest checkpoint is what a restart"
              + " needs); got "
              + retained);
    }
    long timeout = orDefault(options.getCheckpointTimeoutMillis(), -1L);
    if (timeout == 0 || timeout < -1) {
      throw new IllegalArgumentException(
          "--checkpointTimeoutMillis must be a positive number of milliseconds (or -1 for the"
              + " default of 10 minutes); got "
              + timeout);
    }
    int retries =
        options.getNumberOfExecutionRetries() == null ? -1 : options.getNumberOfExecutionRetries();
    if (retries < -1) {
      throw new IllegalArgumentException(
          "--numberOfExecutionRetries must be 0 or more (or -1 for the default); got " + retries);
    }
    long delay = orDefault(options.getExecutionRetryDelay(), -1L);
    if (delay < -1) {
      throw new IllegalArgumentException(
          "--executionRetryDelay must be 0 or more milliseconds (or -1 for the default); got "
              + delay);
    }
    String dir = options.getCheckpointDir();
    // An empty value is most often an unset shell variable (--restoreFrom=$CHECKPOINT): starting
    // from the beginning instead would silently redo the job's output.
    refuseEmpty(dir, "--checkpointDir", "the directory epochs are written to");
    refuseEmpty(
        options.getRestoreFrom(),
        "--restoreFrom",
        "a job's checkpoint directory, or one epoch-NNNNNNNNNN directory in it");
    if (interval <= 0 && (dir != null || options.getRetainedCheckpoints() != null)) {
      LOG.warn(
          "--checkpointDir and --retainedCheckpoints take effect only with checkpointing on: set"
              + " --checkpointingInterval=<milliseconds>");
    }
    Path checkpointDir;
    if (dir != null && !dir.isBlank()) {
      checkpointDir = Path.of(dir);
    } else if (stateDir != null && !stateDir.isBlank()) {
      checkpointDir = Path.of(stateDir, "checkpoints");
    } else {
      checkpointDir = Path.of(System.getProperty("java.io.tmpdir"), "arcon-checkpoints");
    }
    String restore = options.getRestoreFrom();
    return new CheckpointSettings(
        interval,
        checkpointDir,
        retained,
        timeout == -1 ? DEFAULT_TIMEOUT_MILLIS : timeout,
        retries == -1 ? (interval > 0 ? DEFAULT_RETRIES_WITH_CHECKPOINTS : 0) : retries,
        delay == -1 ? DEFAULT_RETRY_DELAY_MILLIS : delay,
        restore == null || restore.isBlank() ? null : Path.of(restore));
  }

  private static void refuseEmpty(String value, String option, String what) {
    if (value != null && value.isBlank()) {
      throw new IllegalArgumentException(
          option
              + " is empty: give "
              + what
              + ", or leave the option out (is the variable it came from unset?)");
    }
  }

  private static long orDefault(Long value, long fallback) {
    return value == null ? fallback : value;
  }
}
