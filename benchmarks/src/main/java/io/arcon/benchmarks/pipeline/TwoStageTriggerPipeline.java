package io.arcon.benchmarks.pipeline;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * Two GroupByKeys in a row under a processing-time trigger: {@code GenerateSequence(0..n) -> (x %
 * keys, 1) -> global window, early panes every delay of processing time, discarding -> Sum per key
 * -> (key % regions, partial sum) -> Sum per region -> count}.
 *
 * <p>The second Sum runs either under Beam's continuation trigger of the first ({@link
 * Stage2Trigger#CONTINUATION}: {@code AfterSynchronizedProcessingTime}, which makes ArconRunner
 * track synchronized processing time across the job) or re-triggered on its own processing-time
 * clock ({@link Stage2Trigger#OWN_CLOCK}: the same trigger as stage one, no synchronized time).
 * Both stages discard fired panes, so whatever the number of panes the partial sums reaching the
 * sink add up to exactly {@code n}: the sink's counters verify every run.
 */
public final class TwoStageTriggerPipeline {

  /** Namespace of the sink's counters. */
  public static final String NAMESPACE = TwoStageTriggerPipeline.class.getName();

  /** Counter of panes that reached the sink (at least one per region). */
  public static final String PANES = "panes";

  /** Counter of the sum of every pane's value: must equal the number of elements. */
  public static final String SUMMED = "summedElements";

  /** Regions the second stage groups the first stage's keys into. */
  static final int REGIONS = 10;

  /** How the second GroupByKey is triggered. */
  public enum Stage2Trigger {
    /** Beam's continuation trigger: synchronized processing time. */
    CONTINUATION,
    /** The first stage's trigger again, on the second stage's own processing-time clock. */
    OWN_CLOCK
  }

  private TwoStageTriggerPipeline() {}

  /** Adds the pipeline to {@code pipeline}. */
  public static void build(
      Pipeline pipeline, long elements, int keys, Duration delay, Stage2Trigger stage2) {
    if (elements <= 0) {
      throw new IllegalArgumentException("--elements must be positive, got " + elements);
    }
    if (keys <= 0) {
      throw new IllegalArgumentException("--keys must be positive, got " + keys);
    }
    if (!delay.isLongerThan(Duration.ZERO)) {
      throw new IllegalArgumentException(
          "--delayMillis must be positive, got " + delay.getMillis());
    }
    PCollection<KV<Long, Long>> partialSums =
        pipeline
            .apply("Sequence", GenerateSequence.from(0).to(elements))
            .apply(
                "KeyByModulo",
                MapElements.into(
                        TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                    .via((Long x) -> KV.of(x % keys, 1L)))
            .apply(
                "EarlyPanes",
                Window.<KV<Long, Long>>into(new GlobalWindows())
                    .triggering(everyDelay(delay))
                    .withAllowedLateness(Duration.ZERO)
                    .discardingFiredPanes())
            .apply("SumPerKey", Sum.longsPerKey())
            .apply(
                "KeyByRegion",
                MapElements.into(
                        TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                    .via((KV<Long, Long> kv) -> KV.of(kv.getKey() % REGIONS, kv.getValue())));
    if (stage2 == Stage2Trigger.OWN_CLOCK) {
      partialSums =
          partialSums.apply(
              "OwnClockPanes",
              Window.<KV<Long, Long>>configure()
                  .triggering(everyDelay(delay))
                  .withAllowedLateness(Duration.ZERO)
                  .discardingFiredPanes());
    }
    partialSums
        .apply("SumPerRegion", Sum.longsPerKey())
        .apply("Count", ParDo.of(new CountAndSumSink(NAMESPACE, PANES, SUMMED)));
  }

  private static Trigger everyDelay(Duration delay) {
    return Repeatedly.forever(AfterProcessingTime.pastFirstElementInPane().plusDelayOf(delay));
  }
}
