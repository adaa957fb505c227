package io.arcon.runner.translation;

import static io.arcon.runner.translation.TranslationTestPipelines.options;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.translation.StatefulStep.Kind;
import java.util.List;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterFirst;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterSynchronizedProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Never;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.ReshuffleTrigger;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/** Which triggers let a combine be lifted, and that the translation follows them. */
class LiftableTriggersTest {
  private static final Duration DELAY = Duration.standardSeconds(5);

  private static AfterProcessingTime afterDelay() {
    return AfterProcessingTime.pastFirstElementInPane().plusDelayOf(DELAY);
  }

  @Test
  void watermarkProcessingTimeAndSingleElementTriggersAreLiftable() {
    for (Trigger trigger :
        List.<Trigger>of(
            DefaultTrigger.of(),
            AfterWatermark.pastEndOfWindow(),
            AfterWatermark.pastEndOfWindow()
                .withEarlyFirings(afterDelay())
                .withLateFirings(afterDelay()),
            Repeatedly.forever(afterDelay()),
            AfterFirst.of(AfterWatermark.pastEndOfWindow(), afterDelay()),
            Repeatedly.forever(afterDelay()).orFinally(AfterWatermark.pastEndOfWindow()),
            Repeatedly.forever(AfterPane.elementCountAtLeast(1)),
            AfterWatermark.pastEndOfWindow()
                .withEarlyFirings(afterDelay())
                .withLateFirings(AfterPane.elementCountAtLeast(1)),
            Never.ever())) {
      assertEquals(true, LiftableTriggers.allows(trigger), trigger.toString());
    }
  }

  @Test
  void countsAboveOneSynchronizedAndReshuffleTriggersAreNot() {
    for (Trigger trigger :
        List.<Trigger>of(
            AfterPane.elementCountAtLeast(2),
            AfterWatermark.pastEndOfWindow().withEarlyFirings(AfterPane.elementCountAtLeast(2)),
            AfterWatermark.pastEndOfWindow()
                .withEarlyFirings(afterDelay())
                .withLateFirings(AfterPane.elementCountAtLeast(3)),
            Repeatedly.forever(AfterFirst.of(afterDelay(), AfterPane.elementCountAtLeast(10))),
            AfterSynchronizedProcessingTime.ofFirstElement(),
            new ReshuffleTrigger<>())) {
      assertEquals(false, LiftableTriggers.allows(trigger), trigger.toString());
    }
  }

  @Test
  void aCombineIsLiftedUnderEarlyProcessingTimeFiringsAndNotUnderElementCounts() {
    ArconPipelineOptions options = options();
    Pipeline p = Pipeline.create(options);
    var input = p.apply("Input", Create.of(KV.of("a", 1L), KV.of("b", 2L)));
    input
        .apply(
            "ByProcessingTime",
            Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardMinutes(1)))
                .triggering(AfterWatermark.pastEndOfWindow().withEarlyFirings(afterDelay()))
                .withAllowedLateness(Duration.ZERO)
                .discardingFiredPanes())
        .apply("SumByProcessingTime", Sum.longsPerKey());
    input
        .apply(
            "ByCount",
            Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardMinutes(1)))
                .triggering(
                    AfterWatermark.pastEndOfWindow()
                        .withEarlyFirings(AfterPane.elementCountAtLeast(2)))
                .withAllowedLateness(Duration.ZERO)
                .discardingFiredPanes())
        .apply("SumByCount", Sum.longsPerKey());

    List<StatefulStep> steps =
        PipelineTranslator.translate(p, options, new MetricsContainerStepMap()).statefulSteps();

    assertEquals(
        List.of(
            new StatefulStep("SumByProcessingTime", "heap", Kind.LIFTED_COMBINE),
            new StatefulStep("SumByCount", "heap", Kind.COMBINING_GROUP_BY_KEY)),
        steps);
  }
}
