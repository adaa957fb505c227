package io.arcon.runtime.epoch;

import io.arcon.runtime.operator.OperatorRestore;

/** What a job resumes from: each operator instance's part of a completed epoch. */
public interface JobRestore {
  /** The epoch restored; new epochs are numbered after it. */
  long epoch();

  /**
   * The restore of operator {@code operatorIndex} of instance {@code instance} of vertex {@code
   * vertexId} (now at {@code parallelism}), or null when it starts empty (new, or nothing saved).
   */
  OperatorRestore restoreFor(int vertexId, int operatorIndex, int instance, int parallelism);

  /** True when the instance had ended all its work in the epoch: it starts finished. */
  boolean startsFinished(int vertexId, int instance);
}
