package io.arcon.runner.translation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
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

  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.create());
  }

  @Test
  void aGroupByKeyAfterAProcessingTimeTriggeredOneUsesSynchronizedTime() {
    Pipeline p = pipeline();
    PCollection<Integer> triggered =
        p.apply(Create.of(1, 2, 3))
            .apply(
                Window.<Integer>configure()
                    .triggering(
                        Repeatedly.forever(
                            AfterProcessingTime.pastFirstElementInPane()
                                .plusDelayOf(Duration.millis(1))))
                    .accumulatingFiredPanes()
                    .withAllowedLateness(Duration.ZERO));
    triggered.apply("first", Sum.integersGlobally().withoutDefaults());
    assertFalse(SynchronizedTimeTriggers.usedBy(p), "one GroupByKey: plain processing time");

    triggered
        .apply("again", Sum.integersGlobally().withoutDefaults())
        .apply("second", Sum.integersGlobally().withoutDefaults());
    assertTrue(SynchronizedTimeTriggers.usedBy(p));
  }

  @Test
  void watermarkTriggersDoNot() {
    Pipeline p = pipeline();
    p.apply(Create.of(1, 2, 3))
        .apply(
            Window.<Integer>configure()
                .triggering(AfterWatermark.pastEndOfWindow())
                .discardingFiredPanes()
                .withAllowedLateness(Duration.ZERO))
        .apply("first", Sum.integersGlobally().withoutDefaults())
        .apply("second", Sum.integersGlobally().withoutDefaults());
    assertFalse(SynchronizedTimeTriggers.usedBy(p));
  }

  @Test
  void findsItInsideCompositeTriggers() {
    assertTrue(
        SynchronizedTimeTriggers.uses(
            AfterWatermark.pastEndOfWindow()
                .withEarlyFirings(AfterSynchronizedProcessingTime.ofFirstElement())));
  }
}
