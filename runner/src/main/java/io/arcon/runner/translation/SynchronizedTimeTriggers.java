package io.arcon.runner.translation;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.windowing.AfterSynchronizedProcessingTime;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.values.PCollection;

/**
 * Whether a pipeline has a synchronized-processing-time trigger anywhere: the continuation trigger
 * Beam gives the output of a GroupByKey with a processing-time trigger, so a second GroupByKey
 * fires in step with the first. Only such jobs need synchronized processing time computed from
 * upstream progress.
 */
public final class SynchronizedTimeTriggers {
  private SynchronizedTimeTriggers() {}

  /** True if a GroupByKey of {@code pipeline} groups a PCollection with such a trigger. */
  public static boolean usedBy(Pipeline pipeline) {
    boolean[] found = {false};
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            if (!(node.getTransform() instanceof GroupByKey)) {
              return;
            }
            for (PCollection<?> input : node.getInputs().values()) {
              if (uses(input.getWindowingStrategy().getTrigger())) {
                found[0] = true;
              }
            }
          }
        });
    return found[0];
  }

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
