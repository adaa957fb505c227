package io.arcon.runner.translation;

import io.arcon.runner.operators.GroupByKeyOperator;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.AppliedCombineFn;
import org.apache.beam.sdk.values.PCollection;

/**
 * Runs a {@link Combine.PerKey} that cannot be lifted (a trigger other than the default, or merging
 * windows) as one {@link GroupByKeyOperator} that adds each element to its window's accumulator
 * ({@link SystemReduceFn#combining}), instead of buffering every element and combining them when a
 * pane fires. runners-core's trigger, lateness and merge handling are the same as a GroupByKey's
 * (merging windows merge accumulators), and the output is what GroupByKey then
 * Combine.GroupedValues give, as Beam's Flink runner does it. A combine with side inputs is
 * expanded into its GroupByKey.
 */
final class CombiningGroupByKeyTranslator implements TransformTranslator {

  @Override
  public boolean canTranslate(TransformHierarchy.Node node) {
    return node.getTransform() instanceof Combine.PerKey<?, ?, ?> perKey
        && perKey.getFn() instanceof Combine.CombineFn<?, ?, ?>
        && perKey.getSideInputs().isEmpty()
        && node.getInputs().size() == 1
        && TransformNodes.onlyInput(node).getCoder() instanceof KvCoder;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    Combine.PerKey<?, ?, ?> perKey = (Combine.PerKey<?, ?, ?>) node.getTransform();
    PCollection<?> input = TransformNodes.onlyInput(node);
    if (SynchronizedTimeTriggers.uses(input.getWindowingStrategy().getTrigger())) {
      ctx.noteSynchronizedTimeTrigger();
    }
    KvCoder kv = (KvCoder) input.getCoder();
    String name = node.getFullName();
    AppliedCombineFn applied =
        AppliedCombineFn.withInputCoder(
            (Combine.CombineFn) perKey.getFn(), ctx.coderRegistry(), kv);
    GroupByKeyOperator.Spec spec =
        new GroupByKeyOperator.Spec(
            name,
            ctx.options(),
            kv.getKeyCoder(),
            input.getWindowingStrategy(),
            (SystemReduceFn<Object, Object, ?, Object, BoundedWindow>)
                (SystemReduceFn) SystemReduceFn.combining(kv.getKeyCoder(), applied),
            ctx.stateEngineFor(name, StatefulStep.Kind.COMBINING_GROUP_BY_KEY),
            ctx.metricsFor(name).withOutputs(TransformNodes.outputNames(node)));
    ctx.produce(node, ctx.addKeyed(name, () -> new GroupByKeyOperator<>(spec), input));
  }
}
