package io.arcon.runner.translation;

import io.arcon.runner.operators.ToKeyedWorkItemOperator;
import org.apache.beam.runners.core.SplittableParDoViaKeyedWorkItems;
import org.apache.beam.sdk.runners.TransformHierarchy;

/**
 * A splittable DoFn's {@link SplittableParDoViaKeyedWorkItems.GBKIntoKeyedWorkItems} becomes a
 * {@link ToKeyedWorkItemOperator} heading a new chain fed by key: no grouping is needed, only the
 * element and its restriction wrapped as a keyed work item on the instance that owns the key.
 */
final class KeyedWorkItemsTranslator implements TransformTranslator {

  @Override
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    ctx.produce(
        node,
        ctx.addKeyed(
            node.getFullName(), ToKeyedWorkItemOperator::new, TransformNodes.onlyInput(node)));
  }
}
