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
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
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

  @Test
  void aWindowsFirstPaneFromLateDataIsLate() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(1);
    Pipeline p = Pipeline.create(options);
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
}
