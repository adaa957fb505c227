package io.arcon.runner.translation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import java.util.function.Consumer;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterSynchronizedProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

class SynchronizedTimeTriggersTest {

  /** Whether translation finds a synchronized-time trigger in the pipeline {@code build} makes. */
  private static boolean usesSynchronizedTime(Consumer<Pipeline> build) {
    ArconPipelineOptions options = TranslationTestPipelines.options();
    Pipeline p = Pipeline.create(options);
    build.accept(p);
    return PipelineTranslator.translate(p, options, new MetricsContainerStepMap())
        .usesSynchronizedTime();
  }

  private static PCollection<Integer> processingTimeTriggered(Pipeline p) {
    return p.apply(Create.of(1, 2, 3))
        .apply(
            Window.<Integer>configure()
                .triggering(
                    Repeatedly.forever(
                        AfterProcessingTime.pastFirstElementInPane()
                            .plusDelayOf(Duration.millis(1))))
                .accumulatingFiredPanes()
                .withAllowedLateness(Duration.ZERO));
  }

  @Test
  void aGroupByKeyAfterAProcessingTimeTriggeredOneUsesSynchronizedTime() {
    assertFalse(
        usesSynchronizedTime(
            p ->
                processingTimeTriggered(p)
                    .apply("first", Sum.integersGlobally().withoutDefaults())),
        "one GroupByKey: plain processing time");

    assertTrue(
        usesSynchronizedTime(
            p -> {
              PCollection<Integer> triggered = processingTimeTriggered(p);
              triggered.apply("first", Sum.integersGlobally().withoutDefaults());
              triggered
                  .apply("again", Sum.integersGlobally().withoutDefaults())
                  .apply("second", Sum.integersGlobally().withoutDefaults());
            }));
  }

  @Test
  void watermarkTriggersDoNot() {
    assertFalse(
        usesSynchronizedTime(
            p ->
                p.apply(Create.of(1, 2, 3))
                    .apply(
                        Window.<Integer>configure()
                            .triggering(AfterWatermark.pastEndOfWindow())
                            .discardingFiredPanes()
                            .withAllowedLateness(Duration.ZERO))
                    .apply("first", Sum.integersGlobally().withoutDefaults())
                    .apply("second", Sum.integersGlobally().withoutDefaults())));
  }

  @Test
  void findsItInsideCompositeTriggers() {
    assertTrue(
        SynchronizedTimeTriggers.uses(
            AfterWatermark.pastEndOfWindow()
                .withEarlyFirings(AfterSynchronizedProcessingTime.ofFirstElement())));
  }
}
