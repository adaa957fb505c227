package io.arcon.runner.translation;

import io.arcon.runner.operators.AssignWindowsOperator;
import io.arcon.runner.operators.ForwardOperator;
import io.arcon.runtime.graph.OperatorNode;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.values.PCollection;

/**
 * A Window.Assign joins its input's chain: an {@link AssignWindowsOperator}, or a {@link
 * ForwardOperator} when it only changes the windowing strategy (no WindowFn).
 */
final class AssignWindowsTranslator implements TransformTranslator {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    PCollection<?> input = TransformNodes.onlyInput(node);
    WindowFn<?, ?> windowFn = ((Window.Assign<?>) node.getTransform()).getWindowFn();
    OperatorNode op =
        windowFn == null
            ? ctx.addFused(node.getFullName(), ForwardOperator::new, input)
            : ctx.addFused(
                node.getFullName(),
                () -> new AssignWindowsOperator(SerializableUtils.clone(windowFn)),
                input);
    ctx.produce(node, op);
  }
}
