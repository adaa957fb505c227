package io.arcon.runner.translation;

import org.apache.beam.sdk.transforms.windowing.AfterAll;
import org.apache.beam.sdk.transforms.windowing.AfterEach;
import org.apache.beam.sdk.transforms.windowing.AfterFirst;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterSynchronizedProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.Never;
import org.apache.beam.sdk.transforms.windowing.OrFinallyTrigger;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.ReshuffleTrigger;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.transforms.windowing.TriggerVisitor;

/**
 * Whether a combine under a trigger may be lifted: whether the trigger fires the same on partial
 * accumulators (each folding some of a key's elements of one bundle) as on the elements themselves.
 *
 * <p>Triggers on the watermark and on processing time do: the merge sees every element's value in
 * the same window, and a partial goes downstream when its bundle ends, as the elements would have
 * by then. An element-count trigger ({@code AfterPane}) of more than one element does not, since it
 * would count partials instead of elements; nor does a synchronized-processing-time trigger, which
 * needs time computed from upstream progress that a lifted combine does not set up, or Reshuffle's
 * trigger. A trigger is liftable when it and every trigger in it are.
 */
final class LiftableTriggers implements TriggerVisitor<Boolean> {
  private static final LiftableTriggers INSTANCE = new LiftableTriggers();

  private LiftableTriggers() {}

  static boolean allows(Trigger trigger) {
    return trigger.accept(INSTANCE);
  }

  private static boolean allSubTriggers(Trigger trigger) {
    for (Trigger sub : trigger.subTriggers()) {
      if (!allows(sub)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Boolean visit(DefaultTrigger trigger) {
    return true;
  }

  @Override
  public Boolean visit(AfterWatermark.FromEndOfWindow trigger) {
    return true;
  }

  @Override
  public Boolean visit(AfterWatermark.AfterWatermarkEarlyAndLate trigger) {
    return allSubTriggers(trigger);
  }

  @Override
  public Boolean visit(Never.NeverTrigger trigger) {
    return true;
  }

  @Override
  public Boolean visit(ReshuffleTrigger<?> trigger) {
    return false;
  }

  @Override
  public Boolean visit(AfterProcessingTime trigger) {
    return true;
  }

  @Override
  public Boolean visit(AfterSynchronizedProcessingTime trigger) {
    return false;
  }

  @Override
  public Boolean visit(AfterFirst trigger) {
    return allSubTriggers(trigger);
  }

  @Override
  public Boolean visit(AfterAll trigger) {
    return allSubTriggers(trigger);
  }

  @Override
  public Boolean visit(AfterEach trigger) {
    return allSubTriggers(trigger);
  }

  /**
   * At least one element is at least one partial, so a count of one fires alike (runners-core
   * evaluates a trigger after each batch of a key's elements, not after each element, so one pane
   * per batch is what the elements would get too); a larger count would count partials.
   */
  @Override
  public Boolean visit(AfterPane trigger) {
    return trigger.getElementCount() <= 1;
  }

  @Override
  public Boolean visit(Repeatedly trigger) {
    return allSubTriggers(trigger);
  }

  @Override
  public Boolean visit(OrFinallyTrigger trigger) {
    return allSubTriggers(trigger);
  }
}
