package io.arcon.portability.execution;

/**
 * Runs portable pipelines on the Arcon runtime: fuses the pipeline into executable stages, builds
 * the job graph and starts it. Each executable stage runs as an operator that drives an SDK harness
 * over the Fn API.
 */
public final class PortablePipelineExecutor {

  private PortablePipelineExecutor() {}

  /**
   * Checks and starts {@code spec}'s pipeline.
   *
   * @throws IllegalArgumentException for a pipeline it cannot run (unknown transform URN, DOCKER or
   *     unknown environment, a malformed pipeline); the message says what and what to do instead
   */
  public static PortableJob start(PortableJobSpec spec) {
    throw new UnsupportedOperationException("being written");
  }
}
