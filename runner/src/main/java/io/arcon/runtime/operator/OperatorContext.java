package io.arcon.runtime.operator;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Executor;

/** What the runtime gives an operator instance. */
public interface OperatorContext {
  Output output();

  /** This operator's parallel instance index, {@code 0 <= index < parallelism()}. */
  int instanceIndex();

  int parallelism();

  /** A private directory for persistent state of this operator instance (created on demand). */
  Path stateDirectory();

  /**
   * The job's tuning of state engines ({@code --stateBackendOptions}, e.g. {@code
   * rocksdb.rowCacheBytes}), for every backend the operator opens; empty for the defaults.
   */
  default Map<String, String> stateBackendOptions() {
    return Map.of();
  }

  /** The current processing time in epoch milliseconds (the job's clock). */
  long currentProcessingTime();

  /** The operator's current input watermark. */
  long currentInputWatermark();

  /**
   * Beam's synchronized processing time of the operator's input in epoch milliseconds: processing
   * time held back by upstream work not yet done (see {@code SynchronizedTimeTracker}); never
   * decreases.
   */
  default long currentSynchronizedProcessingTime() {
    return currentProcessingTime();
  }

  /**
   * User code is about to run a timer callback. Synchronized processing time does not wait for
   * timer callbacks (as in Beam's DirectRunner), so the node lets go of what holds it for the
   * watermark being handled.
   */
  default void userTimerCallbackStarts() {}

  /**
   * Runs tasks on this operator's node, in its mailbox: between two messages and outside any
   * bundle, never concurrently with the node's operators. For work that other threads ask of the
   * operator (reading its state for an extraction). A task submitted after the node stopped never
   * runs, so callers wait with a timeout; a task must not throw (its failure would fail the job).
   */
  default Executor mailbox() {
    throw new UnsupportedOperationException("this operator's host runs no mailbox tasks");
  }

  /**
   * The checkpoint this instance resumes from (read it in {@link Operator#open}), or null for a
   * fresh start.
   */
  default OperatorRestore restore() {
    return null;
  }

  /** True when the job takes epoch snapshots ({@code --checkpointingInterval} is set). */
  default boolean checkpointingEnabled() {
    return false;
  }
}
