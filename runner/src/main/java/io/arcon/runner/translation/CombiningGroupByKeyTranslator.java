package io.arcon.runner.translation;

import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.util.AppliedCombineFn;

/**
 * Runs a {@link Combine.PerKey} that cannot be lifted (merging windows, or a trigger that counts
 * elements or follows synchronized processing time, see {@link LiftableTriggers}) as one {@code
 * GroupByKeyOperator} that adds each element to its window's accumulator ({@link
 * SystemReduceFn#combining}), instead of buffering every element and combining them when a pane
 * fires. runners-core's trigger, lateness and merge handling are the same as a GroupByKey's
 * (merging windows merge accumulators), and the output is what GroupByKey then
 * Combine.GroupedValues give, as Beam's Flink runner does it. A combine with side inputs is
 * expanded into its GroupByKey.
 */
final class CombiningGroupByKeyTranslator implements TransformTranslator {

  @Override
  public boolean canTranslate(TransformHierarchy.Node node) {
    return isCombineOfKvs(node);
  }

  /** A Combine.PerKey of a plain CombineFn over one KV input, without side inputs. */
  static boolean isCombineOfKvs(TransformHierarchy.Node node) {
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
    KvCoder kv = (KvCoder) TransformNodes.onlyInput(node).getCoder();
    AppliedCombineFn applied =
        AppliedCombineFn.withInputCoder(
            (Combine.CombineFn) perKey.getFn(), ctx.coderRegistry(), kv);
    GroupByKeyTranslator.addGrouping(
        node,
        ctx,
        (SystemReduceFn) SystemReduceFn.combining(kv.getKeyCoder(), applied),
        StatefulStep.Kind.COMBINING_GROUP_BY_KEY);
  }
}
