package io.arcon.runner.translation;

import io.arcon.runner.operators.GroupByKeyOperator;
import io.arcon.runner.operators.PartialCombineOperator;
import io.arcon.runtime.graph.OperatorNode;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.util.AppliedCombineFn;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.WindowingStrategy;

/**
 * Runs a liftable composite {@link Combine.PerKey} whole: a {@link PartialCombineOperator} fused
 * into its input's chain, then one keyed merge of the accumulators (a {@link GroupByKeyOperator}
 * combining them), stateful under the composite's name. {@link CombinePerKeyTranslator} runs any
 * other combine it can as a {@link CombiningGroupByKeyTranslator combining GroupByKey}.
 */
final class LiftedCombineTranslator implements TransformTranslator {

  /**
   * Whether the Combine.PerKey runs as a partial combine plus one keyed merge (stateful under the
   * composite's name) instead of being expanded into its GroupByKey: non-merging windows and a
   * trigger that fires the same on partials as on elements ({@link LiftableTriggers}: watermark and
   * processing-time triggers, not element counts). Those triggers never use synchronized processing
   * time, so a lifted combine never needs it either. Under a trigger other than the default one the
   * partials go downstream at every bundle's end, so that a pane fired by processing time holds
   * what the input has processed.
   */
  @Override
  public boolean canTranslate(TransformHierarchy.Node node) {
    // What a combining GroupByKey runs, and in addition windows a partial combine may pre-combine.
    if (!CombiningGroupByKeyTranslator.isCombineOfKvs(node)) {
      return false;
    }
    WindowingStrategy<?, ?> ws = TransformNodes.onlyInput(node).getWindowingStrategy();
    return ws.getWindowFn().isNonMerging() && LiftableTriggers.allows(ws.getTrigger());
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    Combine.PerKey<?, ?, ?> perKey = (Combine.PerKey<?, ?, ?>) node.getTransform();
    String name = node.getFullName();
    PCollection<?> input = TransformNodes.onlyInput(node);
    KvCoder kv = (KvCoder) input.getCoder();
    Combine.CombineFn fn = (Combine.CombineFn) perKey.getFn();
    Coder accumulatorCoder;
    try {
      accumulatorCoder = fn.getAccumulatorCoder(ctx.coderRegistry(), kv.getValueCoder());
    } catch (CannotProvideCoderException e) {
      throw new IllegalStateException("No accumulator coder for the combine " + name, e);
    }
    WindowingStrategy<?, ?> ws = input.getWindowingStrategy();
    String partialName = name + "/PartialCombine";
    var partialMetrics = ctx.metricsFor(name);
    OperatorNode partial =
        ctx.addFused(
            partialName,
            () ->
                new PartialCombineOperator(
                    SerializableUtils.clone(fn),
                    kv.getKeyCoder(),
                    ws.getTimestampCombiner(),
                    !(ws.getTrigger() instanceof DefaultTrigger),
                    partialMetrics),
            input);
    partial.declareOutputs(1);
    AccumulatorMergingCombineFn merging = new AccumulatorMergingCombineFn(fn, accumulatorCoder);
    KvCoder accumulatorKvCoder = KvCoder.of(kv.getKeyCoder(), accumulatorCoder);
    AppliedCombineFn applied =
        AppliedCombineFn.withInputCoder(merging, ctx.coderRegistry(), accumulatorKvCoder);
    GroupByKeyOperator.Spec spec =
        new GroupByKeyOperator.Spec(
            name,
            ctx.options(),
            kv.getKeyCoder(),
            ws,
            (SystemReduceFn<Object, Object, ?, Object, BoundedWindow>)
                (SystemReduceFn) SystemReduceFn.combining(kv.getKeyCoder(), applied),
            ctx.stateEngineFor(name, StatefulStep.Kind.LIFTED_COMBINE),
            ctx.metricsFor(name).withOutputs(TransformNodes.outputNames(node)));
    OperatorNode merge =
        ctx.addKeyedFrom(
            name + "/MergeAccumulators",
            () -> GroupByKeyOperator.create(spec),
            ctx.vertexOf(partial),
            partial,
            0,
            kv.getKeyCoder());
    ctx.produce(node, merge);
  }
}
