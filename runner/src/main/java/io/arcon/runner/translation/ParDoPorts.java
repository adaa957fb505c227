package io.arcon.runner.translation;

import io.arcon.runtime.graph.OperatorNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.util.construction.TransformInputs;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The inputs and outputs of a DoFn step (a ParDo or a splittable DoFn's process step) as its
 * operator sees them: the main input on port 0, side inputs on ports 1.., and one operator output
 * per output tag, the main output first and then the additional ones in declaration order.
 *
 * @param mainInput the PCollection on port 0
 * @param sideInputs the views whose materialized panes arrive on ports 1.., in this order
 * @param outputTags every output tag by operator output index: main first
 * @param outputIndexes the operator output index of each tag
 * @param outputCoders the coder of each tag that produces a PCollection
 * @param outputNames by operator output index, the produced PCollection's name, or null
 * @param outputs the PCollection each tag produces
 */
record ParDoPorts(
    PCollection<?> mainInput,
    List<PCollectionView<?>> sideInputs,
    List<TupleTag<?>> outputTags,
    Map<TupleTag<?>, Integer> outputIndexes,
    Map<TupleTag<?>, Coder<?>> outputCoders,
    List<String> outputNames,
    Map<TupleTag<?>, PCollection<?>> outputs) {

  /** The ports of {@code node}, a DoFn step with these output tags and side inputs. */
  static ParDoPorts of(
      TransformHierarchy.Node node,
      TranslationContext ctx,
      TupleTag<?> mainOutputTag,
      List<TupleTag<?>> additionalOutputTags,
      List<PCollectionView<?>> sideInputs) {
    PCollection<?> main =
        (PCollection<?>)
            TransformInputs.nonAdditionalInputs(ctx.appliedTransform(node)).iterator().next();
    Map<TupleTag<?>, PCollection<?>> outputs = node.getOutputs();
    List<TupleTag<?>> tags = new ArrayList<>();
    tags.add(mainOutputTag);
    tags.addAll(additionalOutputTags);
    Map<TupleTag<?>, Integer> indexes = new HashMap<>();
    Map<TupleTag<?>, Coder<?>> coders = new HashMap<>();
    List<String> names = new ArrayList<>();
    for (TupleTag<?> tag : tags) {
      indexes.put(tag, indexes.size());
      PCollection<?> out = outputs.get(tag);
      if (out != null) {
        coders.put(tag, out.getCoder());
      }
      names.add(out == null ? null : out.getName());
    }
    return new ParDoPorts(main, sideInputs, tags, indexes, coders, names, outputs);
  }

  /**
   * Connects the side inputs to {@code op}, declares its outputs and makes it the producer of each
   * output PCollection.
   */
  void wire(OperatorNode op, TranslationContext ctx) {
    if (!sideInputs.isEmpty()) {
      ctx.connectSideInputs(op, sideInputs);
    }
    op.declareOutputs(outputTags.size());
    for (TupleTag<?> tag : outputTags) {
      PCollection<?> out = outputs.get(tag);
      if (out != null) {
        ctx.setProducer(out, ctx.vertexOf(op), op, outputIndexes.get(tag));
      }
    }
  }
}
