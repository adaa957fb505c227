package io.arcon.runner.checkpointing;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.arcon.runtime.epoch.EpochFaultInjector;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Hidden;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Epoch snapshots, restarts and resuming (DESIGN §5). The names are those of Beam's Flink runner
 * where it has one ({@code --checkpointingInterval}, {@code --numberOfExecutionRetries}, {@code
 * --executionRetryDelay}, {@code --checkpointTimeoutMillis}).
 */
public interface CheckpointingOptions extends PipelineOptions {
  @Description(
      "Take an aligned epoch snapshot of the whole pipeline every this many milliseconds (state,"
          + " timers, buffered input and source positions), so a failed job restarts from it and a"
          + " new process can resume with --restoreFrom. Off when unset or -1.")
  @Default.Long(-1L)
  Long getCheckpointingInterval();

  void setCheckpointingInterval(Long intervalMillis);

  @Description(
      "Directory that keeps the checkpoints (one subdirectory per job name; kept when the job fails"
          + " or is cancelled, deleted when it finishes). Default:"
          + " <stateDir>/checkpoints with --stateDir, else <java.io.tmpdir>/arcon-checkpoints.")
  String getCheckpointDir();

  void setCheckpointDir(String directory);

  @Description("Completed checkpoints kept per job; older ones are deleted. Default 3.")
  @Default.Integer(3)
  Integer getRetainedCheckpoints();

  void setRetainedCheckpoints(Integer count);

  @Description(
      "Give an epoch up when it is not complete after this many milliseconds. Default (-1): 10"
          + " minutes.")
  @Default.Long(-1L)
  Long getCheckpointTimeoutMillis();

  void setCheckpointTimeoutMillis(Long timeoutMillis);

  @Description(
      "Restarts of a failed job (from its newest completed epoch, or from the start without one)"
          + " before it fails. Default (-1): 3 with --checkpointingInterval, 0 without.")
  @Default.Integer(-1)
  Integer getNumberOfExecutionRetries();

  void setNumberOfExecutionRetries(Integer retries);

  @Description("Milliseconds between a failure and the restart. Default (-1): 1000.")
  @Default.Long(-1L)
  Long getExecutionRetryDelay();

  void setExecutionRetryDelay(Long delayMillis);

  @Description(
      "Start from a checkpoint instead of from scratch: an epoch directory, or a job's checkpoint"
          + " directory (its newest complete epoch). The pipeline must be the same; the"
          + " parallelism and state backends may differ.")
  String getRestoreFrom();

  void setRestoreFrom(String checkpoint);

  /** Fault injection for the epoch protocol's own tests; not a command-line option. */
  @JsonIgnore
  @Hidden
  EpochFaultInjector getEpochFaultInjector();

  void setEpochFaultInjector(EpochFaultInjector faults);
}
