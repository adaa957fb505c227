package io.arcon.runner.operators;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterAll;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The first pane of a window whose only element arrives after the watermark passed the window is
 * LATE, as on DirectRunner (runners-core's PaneInfoTracker: the output watermark passed the
 * window), for a Sum and a GroupByKey. Without an output watermark the runner labelled it ON_TIME.
 */
class LatePaneTimingTest {
  private static final Instant T0 = new Instant(1_000_000_000_000L);

  private static Pipeline onOneInstance() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(1);
    return Pipeline.create(options);
  }

  @Test
  void aWindowsFirstPaneFromLateDataIsLate() {
    Pipeline p = onOneInstance();
    TestStream<KV<String, Long>> events =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
            .addElements(TimestampedValue.of(KV.of("a", 1L), T0.plus(Duration.standardSeconds(1))))
            .advanceWatermarkTo(T0.plus(Duration.standardSeconds(25)))
            .addElements(
                TimestampedValue.of(KV.of("b", 12L), T0.plus(Duration.standardSeconds(16))))
            .advanceWatermarkToInfinity();
    PCollection<KV<String, Long>> windowed =
        p.apply(events)
            .apply(
                Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardSeconds(10)))
                    .triggering(
                        AfterWatermark.pastEndOfWindow()
                            .withLateFirings(AfterPane.elementCountAtLeast(1)))
                    .withAllowedLateness(Duration.standardSeconds(60))
                    .discardingFiredPanes());
    IntervalWindow lateWindow =
        new IntervalWindow(T0.plus(Duration.standardSeconds(10)), Duration.standardSeconds(10));
    IntervalWindow onTimeWindow = new IntervalWindow(T0, Duration.standardSeconds(10));

    PCollection<KV<String, Long>> sums = windowed.apply(Sum.longsPerKey());
    PAssert.that(sums).inLatePane(lateWindow).containsInAnyOrder(KV.of("b", 12L));
    PAssert.that(sums).inOnTimePane(onTimeWindow).containsInAnyOrder(KV.of("a", 1L));

    PCollection<KV<String, Iterable<Long>>> groups = windowed.apply(GroupByKey.create());
    PAssert.that(groups)
        .inLatePane(lateWindow)
        .satisfies(
            g -> {
              int n = 0;
              for (KV<String, Iterable<Long>> group : g) {
                n++;
              }
              org.junit.jupiter.api.Assertions.assertEquals(1, n, "one late group");
              return null;
            });
    p.run();
  }

  /**
   * A pane fired by processing time releases its window's hold, and the output watermark moves up
   * with it, not only at the next watermark advance: key a's on-time pane of [10 s, 20 s) fires on
   * processing time after the watermark reached 25 s, releasing the hold at 19.999 s; key b's late
   * element of the same window then gets its only pane at garbage collection, which is LATE on
   * DirectRunner (the output watermark, 25 s, passed the window). With the output watermark left at
   * 19.999 s until the next advance the runner labelled that pane ON_TIME. Runs on runners-core's
   * reduce logic (a composite trigger).
   */
  @Test
  void aHoldReleasedByAProcessingTimePaneLetsTheOutputWatermarkMoveUp() {
    Pipeline p = onOneInstance();
    TestStream<KV<String, Long>> events =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
            .advanceWatermarkTo(T0.plus(Duration.standardSeconds(11)))
            .addElements(
                TimestampedValue.of(KV.of("a", 9L), T0.plus(Duration.standardSeconds(14))),
                TimestampedValue.of(KV.of("a", 10L), T0.plus(Duration.standardSeconds(15))))
            .advanceWatermarkTo(T0.plus(Duration.standardSeconds(25)))
            .addElements(
                TimestampedValue.of(KV.of("b", 12L), T0.plus(Duration.standardSeconds(16))))
            .advanceProcessingTime(Duration.standardSeconds(30))
            .advanceWatermarkToInfinity();
    PCollection<KV<String, Long>> sums =
        p.apply(events)
            .apply(
                Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardSeconds(10)))
                    .triggering(
                        Repeatedly.forever(
                            AfterAll.of(
                                AfterPane.elementCountAtLeast(2),
                                AfterProcessingTime.pastFirstElementInPane()
                                    .plusDelayOf(Duration.standardSeconds(1)))))
                    .withAllowedLateness(
                        Duration.standardSeconds(60), Window.ClosingBehavior.FIRE_ALWAYS)
                    .discardingFiredPanes())
            .apply(Sum.longsPerKey());
    IntervalWindow window =
        new IntervalWindow(T0.plus(Duration.standardSeconds(10)), Duration.standardSeconds(10));
    PAssert.that(sums).inOnTimePane(window).containsInAnyOrder(KV.of("a", 19L));
    // b's only pane and a's empty closing pane (FIRE_ALWAYS), both at garbage collection.
    PAssert.that(sums).inLatePane(window).containsInAnyOrder(KV.of("b", 12L), KV.of("a", 0L));
    p.run();
  }
}
