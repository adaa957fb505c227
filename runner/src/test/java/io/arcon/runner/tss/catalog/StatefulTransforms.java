package io.arcon.runner.tss.catalog;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.values.PCollection;

/**
 * The stateful ParDos of a constructed pipeline, found as the translator finds them: primitive
 * {@code ParDo.MultiOutput} nodes whose DoFn uses state or timers, keyed by their input's {@code
 * KvCoder}, exact when the DoFn requires time-sorted input.
 */
final class StatefulTransforms {
  private StatefulTransforms() {}

  static List<StatefulDoFnInfo> of(Pipeline pipeline, String backend) {
    List<StatefulDoFnInfo> out = new ArrayList<>();
    pipeline.traverseTopologically(
        new Pipeline.PipelineVisitor.Defaults() {
          @Override
          public void visitPrimitiveTransform(TransformHierarchy.Node node) {
            if (!(node.getTransform() instanceof ParDo.MultiOutput<?, ?> pardo)) {
              return;
            }
            DoFnSignature signature = DoFnSignatures.getSignature(pardo.getFn().getClass());
            if (!signature.usesState() && !signature.usesTimers()) {
              return;
            }
            PCollection<?> input = node.getInputs().values().iterator().next();
            KvCoder<?, ?> kv = (KvCoder<?, ?>) input.getCoder();
            out.add(
                new StatefulDoFnInfo(
                    node.getFullName(),
                    pardo.getFn(),
                    kv.getKeyCoder(),
                    backend,
                    signature.processElement().requiresTimeSortedInput()));
          }
        });
    return out;
  }
}
