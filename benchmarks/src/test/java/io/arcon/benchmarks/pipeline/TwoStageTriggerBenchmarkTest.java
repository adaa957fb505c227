package io.arcon.benchmarks.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.pipeline.TwoStageTriggerBenchmark.Configuration;
import io.arcon.benchmarks.pipeline.TwoStageTriggerPipeline.Stage2Trigger;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.translation.PipelineTranslator;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TwoStageTriggerBenchmarkTest {

  @ParameterizedTest
  @EnumSource(Configuration.class)
  void everyConfigurationCountsEveryElementExactlyOnceAcrossPanes(Configuration configuration) {
    TwoStageTriggerBenchmark.Run run =
        TwoStageTriggerBenchmark.runOnce(
            configuration,
            new String[] {"--parallelism=2", "--keys=500", "--delayMillis=5"},
            200_000);
    assertEquals(200_000, run.summedElements());
    assertTrue(run.panes() >= TwoStageTriggerPipeline.REGIONS, "panes: " + run.panes());
  }

  @Test
  void onlyTheContinuationVariantNeedsSynchronizedProcessingTime() {
    assertTrue(usesSynchronizedTime(Stage2Trigger.CONTINUATION));
    assertFalse(usesSynchronizedTime(Stage2Trigger.OWN_CLOCK));
  }

  @Test
  void nonPositiveDelayIsRejected() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TwoStageTriggerPipeline.build(
                    Pipeline.create(), 10, 10, Duration.ZERO, Stage2Trigger.CONTINUATION));
    assertEquals("--delayMillis must be positive, got 0", error.getMessage());
  }

  /** Whether translating the benchmark pipeline finds a synchronized-time trigger. */
  private static boolean usesSynchronizedTime(Stage2Trigger stage2) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setParallelism(1);
    Pipeline pipeline = Pipeline.create(options);
    TwoStageTriggerPipeline.build(pipeline, 1_000, 100, Duration.millis(100), stage2);
    return PipelineTranslator.translate(pipeline, options, new MetricsContainerStepMap())
        .usesSynchronizedTime();
  }
}
