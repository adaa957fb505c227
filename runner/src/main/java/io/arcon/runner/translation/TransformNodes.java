package io.arcon.runner.translation;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.values.PCollection;

/** The inputs and outputs of a transform node, as the translators read them. */
final class TransformNodes {
  private TransformNodes() {}

  static PCollection<?> onlyInput(TransformHierarchy.Node node) {
    List<PCollection<?>> ins = new ArrayList<>(node.getInputs().values());
    if (ins.size() != 1) {
      throw new IllegalStateException(node.getFullName() + " has " + ins.size() + " inputs");
    }
    return ins.get(0);
  }

  static PCollection<?> onlyOutput(TransformHierarchy.Node node) {
    List<PCollection<?>> outs = new ArrayList<>(node.getOutputs().values());
    if (outs.size() != 1) {
      throw new IllegalStateException(node.getFullName() + " has " + outs.size() + " outputs");
    }
    return outs.get(0);
  }

  /** The names of a single-output transform's PCollection, for its element-count metric. */
  static List<String> outputNames(TransformHierarchy.Node node) {
    List<String> names = new ArrayList<>();
    for (PCollection<?> out : node.getOutputs().values()) {
      names.add(out.getName());
    }
    return names;
  }
}
