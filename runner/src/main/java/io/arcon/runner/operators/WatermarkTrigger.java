package io.arcon.runner.operators;

import java.util.Optional;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Never;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.transforms.windowing.TimestampTransform;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.values.WindowingStrategy;

/**
 * The triggers {@link WatermarkTriggerGroupByKeyOperator} runs itself: a watermark trigger with at
 * most one early and one late sub-trigger, each a count of elements, a processing-time delay after
 * the pane's first element, or never; over any windows (merging too) with the end-of-window output
 * time. That covers {@code DefaultTrigger}, {@code AfterWatermark.pastEndOfWindow()} and its {@code
 * withEarlyFirings}/{@code withLateFirings} forms, which is most of what pipelines set.
 *
 * <p>The phases follow runners-core's {@code AfterWatermarkStateMachine}: before the watermark
 * passes the end of the window the early sub-trigger decides, and after its on-time pane the late
 * one; the sub-trigger starts afresh after each of its firings. {@code DefaultTrigger} and {@code
 * Repeatedly.forever(AfterWatermark.pastEndOfWindow())} behave exactly as an early {@code Never}
 * with a late count of one (a pane for every late element), and a plain {@code
 * AfterWatermark.pastEndOfWindow()} as an early {@code Never} without a late trigger (the window
 * closes with its on-time pane). In the global window, {@code Repeatedly.forever(s)} of such a
 * sub-trigger {@code s} is an early {@code s} without a late trigger.
 *
 * @param early what fires panes before the end of the window
 * @param late what fires panes after the on-time pane; null: the window closes with it
 * @param plain a bare {@code AfterWatermark.pastEndOfWindow()}, which differs from an early {@code
 *     Never} without late firings in one merge only: of new windows alone, past their end (it is
 *     finished there, the other is not)
 */
record WatermarkTrigger(SubTrigger early, SubTrigger late, boolean plain) {

  /** A count of elements, a processing-time delay after the pane's first element, or never. */
  record SubTrigger(Kind kind, long amount) {
    enum Kind {
      NEVER,
      ELEMENT_COUNT,
      PROCESSING_DELAY
    }

    static final SubTrigger NEVER = new SubTrigger(Kind.NEVER, 0);

    static Optional<SubTrigger> of(Trigger trigger) {
      if (trigger instanceof Never.NeverTrigger) {
        return Optional.of(NEVER);
      }
      if (trigger instanceof AfterPane pane) {
        return Optional.of(new SubTrigger(Kind.ELEMENT_COUNT, pane.getElementCount()));
      }
      if (trigger instanceof AfterProcessingTime processing) {
        long delay = 0;
        for (TimestampTransform transform : processing.getTimestampTransforms()) {
          if (!(transform instanceof TimestampTransform.Delay d)) {
            return Optional.empty(); // alignTo: left to runners-core
          }
          delay = Math.addExact(delay, d.getDelay().getMillis());
        }
        return Optional.of(new SubTrigger(Kind.PROCESSING_DELAY, delay));
      }
      return Optional.empty();
    }
  }

  private static final WatermarkTrigger REPEATED_ON_TIME =
      new WatermarkTrigger(
          SubTrigger.NEVER, new SubTrigger(SubTrigger.Kind.ELEMENT_COUNT, 1), false);

  /** The trigger of {@code strategy} if this model describes it and its windows, else empty. */
  static Optional<WatermarkTrigger> of(WindowingStrategy<?, ?> strategy) {
    if (strategy.getTimestampCombiner() != TimestampCombiner.END_OF_WINDOW) {
      return Optional.empty();
    }
    Trigger trigger = strategy.getTrigger();
    if (trigger instanceof DefaultTrigger
        || (trigger instanceof Repeatedly repeated
            && repeated.getRepeatedTrigger() instanceof AfterWatermark.FromEndOfWindow)) {
      return Optional.of(REPEATED_ON_TIME);
    }
    if (trigger instanceof Repeatedly repeated && strategy.getWindowFn() instanceof GlobalWindows) {
      // In the global window the end of the window is also its garbage collection time (whatever
      // the allowed lateness), so runners-core ends a repeated trigger's window there exactly as it
      // ends a watermark trigger's: one final pane of what is left, timed by the watermark. Before
      // that the repeated sub-trigger fires as an early one does, afresh after each firing.
      return SubTrigger.of(repeated.getRepeatedTrigger())
          .map(sub -> new WatermarkTrigger(sub, null, false));
    }
    if (trigger instanceof AfterWatermark.FromEndOfWindow) {
      return Optional.of(new WatermarkTrigger(SubTrigger.NEVER, null, true));
    }
    if (trigger instanceof AfterWatermark.AfterWatermarkEarlyAndLate earlyAndLate) {
      Optional<SubTrigger> early = SubTrigger.of(earlyAndLate.getEarlyTrigger());
      if (early.isEmpty()) {
        return Optional.empty();
      }
      if (earlyAndLate.getLateTrigger() == null) {
        return Optional.of(new WatermarkTrigger(early.get(), null, false));
      }
      return SubTrigger.of(earlyAndLate.getLateTrigger())
          .map(late -> new WatermarkTrigger(early.get(), late, false));
    }
    return Optional.empty();
  }
}
