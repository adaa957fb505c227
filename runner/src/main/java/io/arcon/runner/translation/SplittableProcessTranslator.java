package io.arcon.runner.translation;

import io.arcon.runner.operators.SplittableProcessOperator;
import io.arcon.runtime.graph.OperatorNode;
import org.apache.beam.runners.core.SplittableParDoViaKeyedWorkItems;
import org.apache.beam.sdk.runners.TransformHierarchy;

/**
 * The process step of a splittable DoFn ({@link SplittableParDoViaKeyedWorkItems.ProcessElements})
 * becomes a stateful {@link SplittableProcessOperator}, fused behind the keyed work-item wrapper
 * that {@link KeyedWorkItemsTranslator} put at the head of its chain.
 */
final class SplittableProcessTranslator implements TransformTranslator {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    SplittableParDoViaKeyedWorkItems.ProcessElements<?, ?, ?, ?, ?> pe =
        (SplittableParDoViaKeyedWorkItems.ProcessElements<?, ?, ?, ?, ?>) node.getTransform();
    String name = node.getFullName();
    ParDoPorts ports =
        ParDoPorts.of(
            node,
            ctx,
            pe.getMainOutputTag(),
            pe.getAdditionalOutputTags().getAll(),
            pe.getSideInputs());
    SplittableProcessOperator.Spec spec =
        new SplittableProcessOperator.Spec(
            name,
            pe,
            ctx.options(),
            ports.mainInput().getCoder(),
            ports.outputCoders(),
            ports.outputIndexes(),
            ports.mainInput().getWindowingStrategy(),
            ctx.stateEngineFor(name, StatefulStep.Kind.SPLITTABLE_PROCESS),
            ctx.metricsFor(name));
    // Fused behind the keyed work-item wrapper: the keyed shuffle happened there.
    OperatorNode op =
        ctx.addFused(name, () -> new SplittableProcessOperator<>(spec), ports.mainInput());
    ports.wire(op, ctx);
  }
}
