package io.arcon.portability.jobservice;

import io.arcon.portability.execution.PortableJob;
import io.arcon.portability.execution.PortableJobSpec;
import io.arcon.portability.execution.PortablePipelineExecutor;

/**
 * What the Job Service calls to start a job it has prepared and whose artifacts are staged. The job
 * server uses {@link #ARCON} (the Arcon runtime); another starter runs the same service over a
 * different engine.
 */
@FunctionalInterface
public interface JobStarter {

  /** Runs portable pipelines on the Arcon runtime. */
  JobStarter ARCON = PortablePipelineExecutor::start;

  /**
   * Starts {@code spec}'s pipeline.
   *
   * @throws IllegalArgumentException for a pipeline it cannot run; the Run call then fails with
   *     INVALID_ARGUMENT and this message
   */
  PortableJob start(PortableJobSpec spec);
}
