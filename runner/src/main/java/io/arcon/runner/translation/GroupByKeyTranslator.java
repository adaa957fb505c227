package io.arcon.runner.translation;

import io.arcon.runner.operators.GroupByKeyOperator;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.PCollection;

/**
 * A GroupByKey becomes a stateful {@link GroupByKeyOperator} heading a new chain fed by key. It is
 * also where a synchronized-processing-time trigger shows up (see {@link
 * SynchronizedTimeTriggers}).
 */
final class GroupByKeyTranslator implements TransformTranslator {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    KvCoder<?, ?> kv = (KvCoder<?, ?>) TransformNodes.onlyInput(node).getCoder();
    addGrouping(
        node,
        ctx,
        (SystemReduceFn) SystemReduceFn.buffering(kv.getValueCoder()),
        StatefulStep.Kind.GROUP_BY_KEY);
  }

  /**
   * Adds a {@link GroupByKeyOperator} for {@code node}, fed by key from its only input, that
   * reduces each window's values with {@code reduceFn} and is a stateful step of {@code kind} under
   * the node's name.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static void addGrouping(
      TransformHierarchy.Node node,
      TranslationContext ctx,
      SystemReduceFn<Object, Object, ?, Object, BoundedWindow> reduceFn,
      StatefulStep.Kind kind) {
    PCollection<?> input = TransformNodes.onlyInput(node);
    if (SynchronizedTimeTriggers.uses(input.getWindowingStrategy().getTrigger())) {
      ctx.noteSynchronizedTimeTrigger();
    }
    KvCoder<?, ?> kv = (KvCoder<?, ?>) input.getCoder();
    String name = node.getFullName();
    GroupByKeyOperator.Spec spec =
        new GroupByKeyOperator.Spec(
            name,
            ctx.options(),
            kv.getKeyCoder(),
            input.getWindowingStrategy(),
            reduceFn,
            ctx.stateEngineFor(name, kind),
            ctx.metricsFor(name).withOutputs(TransformNodes.outputNames(node)));
    ctx.produce(node, ctx.addKeyed(name, () -> GroupByKeyOperator.create(spec), input));
  }
}
