package io.arcon.benchmarks.pipeline;

import io.arcon.benchmarks.tss.CounterEvents;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * Grouping whose state is touched by every element (issue 15, item 2): a stream of {@code (key, 1)}
 * about one event-time millisecond apart ({@link CounterEvents}, unbounded, watermark 500 ms
 * behind) into a GroupByKey or a Sum per key, either in one-minute fixed windows with early firings
 * (every 100 ms of processing time) and late firings (every late element) or in per-key session
 * windows (gap {@link #SESSION_GAP}: every element of a key merges into the key's one growing
 * session, the merging path). Panes are discarding, so every element is in exactly one pane: the
 * sink adds up group sizes (or sums) and pane counts in counters, and the element total verifies
 * each run.
 */
final class TriggeredGroupingPipeline {
  static final String NAMESPACE = TriggeredGroupingPipeline.class.getName();
  static final String PANES = "panes";
  static final String ELEMENTS = "elements";

  /**
   * Longer than the 10,000 ms between two elements of a key at 10k keys: each key's elements merge
   * into one growing session.
   */
  static final Duration SESSION_GAP = Duration.standardSeconds(30);

  /** The windowing of a configuration. */
  enum Windowing {
    EARLY_LATE,
    SESSIONS
  }

  /** What groups the windowed elements. */
  enum Grouping {
    GROUP_BY_KEY,
    SUM
  }

  private TriggeredGroupingPipeline() {}

  static void build(
      Pipeline pipeline, long elements, long keys, Windowing windowing, Grouping grouping) {
    if (elements <= 0 || keys <= 0) {
      throw new IllegalArgumentException(
          "--elements and --keys must be positive, got " + elements + " and " + keys);
    }
    // The streaming input of the TSS benchmark: element i at event time i ms minus up to 200 ms
    // of disorder, key (31 i + 7) % keys, a watermark 500 ms behind, so windows close as it runs.
    PCollection<KV<Long, Long>> keyed =
        pipeline.apply(
            "Events",
            Read.from(
                CounterEvents.of(
                    new CounterEvents.Shape(elements, Math.toIntExact(keys), 0, 200, 500, 0))));
    PCollection<KV<Long, Long>> windowed =
        switch (windowing) {
          case EARLY_LATE ->
              keyed.apply(
                  "EarlyAndLatePanes",
                  Window.<KV<Long, Long>>into(FixedWindows.of(Duration.standardMinutes(1)))
                      .triggering(
                          AfterWatermark.pastEndOfWindow()
                              .withEarlyFirings(
                                  AfterProcessingTime.pastFirstElementInPane()
                                      .plusDelayOf(Duration.millis(100)))
                              .withLateFirings(AfterPane.elementCountAtLeast(1)))
                      .withAllowedLateness(Duration.standardMinutes(1))
                      .discardingFiredPanes());
          case SESSIONS ->
              keyed.apply(
                  "Sessions", Window.<KV<Long, Long>>into(Sessions.withGapDuration(SESSION_GAP)));
        };
    PCollection<KV<Long, Long>> sizes =
        switch (grouping) {
          case GROUP_BY_KEY ->
              windowed
                  .apply("GroupByKey", GroupByKey.create())
                  .apply(
                      "GroupSize",
                      MapElements.into(
                              TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                          .via(
                              (KV<Long, Iterable<Long>> group) -> {
                                long size = 0;
                                for (Long ignored : group.getValue()) {
                                  size++;
                                }
                                return KV.of(group.getKey(), size);
                              }));
          case SUM -> windowed.apply("SumPerKey", Sum.longsPerKey());
        };
    sizes.apply("CountPanes", ParDo.of(new CountAndSumSink(NAMESPACE, PANES, ELEMENTS)));
  }
}
