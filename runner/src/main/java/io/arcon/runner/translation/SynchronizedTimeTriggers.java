package io.arcon.runner.translation;

import org.apache.beam.sdk.transforms.windowing.AfterSynchronizedProcessingTime;
import org.apache.beam.sdk.transforms.windowing.Trigger;

/**
 * Whether a trigger is a synchronized-processing-time trigger or contains one: the continuation
 * trigger Beam gives the output of a GroupByKey with a processing-time trigger, so a second
 * GroupByKey fires in step with the first. Only jobs that group by such a trigger (as {@link
 * GroupByKeyTranslator} notes) need synchronized processing time computed from upstream progress.
 */
final class SynchronizedTimeTriggers {
  private SynchronizedTimeTriggers() {}

  static boolean uses(Trigger trigger) {
    if (trigger instanceof AfterSynchronizedProcessingTime) {
      return true;
    }
    for (Trigger sub : trigger.subTriggers()) {
      if (uses(sub)) {
        return true;
      }
    }
    return false;
  }
}
