package io.arcon.runner;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** Pipelines for the runner's own tests. */
final class TestPipelines {
  private TestPipelines() {}

  /**
   * A pipeline on {@code runner} (ArconRunner, TestArconRunner or DirectRunner) at parallelism 2.
   */
  static Pipeline create(Class<? extends PipelineRunner<?>> runner) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(runner);
    options.setParallelism(2);
    // The runner's tests do not register with the user's TSS control plane (~/.arcon/tss).
    options.setTss("off");
    return Pipeline.create(options);
  }
}
