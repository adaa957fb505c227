package io.arcon.runner.translation;

import io.arcon.runner.operators.ForwardOperator;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.values.PCollection;

/**
 * A Flatten becomes a {@link ForwardOperator} reading every input on port 0: fused when all inputs
 * come from one chain, else heading a new chain.
 */
final class FlattenTranslator implements TransformTranslator {

  @Override
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    List<PCollection<?>> inputs = new ArrayList<>(node.getInputs().values());
    ctx.produce(node, ctx.addMultiInput(node.getFullName(), ForwardOperator::new, inputs));
  }
}
