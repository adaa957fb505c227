package io.arcon.runner.translation;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.operators.BoundedReadSource;
import io.arcon.runner.operators.UnboundedReadSource;
import io.arcon.runtime.graph.OperatorNode;
import org.apache.beam.sdk.io.BoundedSource;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.util.construction.SplittableParDo;

/**
 * A read of a bounded or unbounded source (Beam's {@code Read} or the primitive reads that replace
 * read-based splittable DoFns) becomes a {@link BoundedReadSource} or {@link UnboundedReadSource}
 * heading its own chain.
 */
final class ReadTranslator implements TransformTranslator {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    PTransform<?, ?> t = node.getTransform();
    ArconPipelineOptions options = ctx.options();
    var metrics = ctx.metricsFor(node.getFullName());
    String name = node.getFullName();
    BoundedSource<?> bounded = null;
    UnboundedSource<?, ?> unbounded = null;
    if (t instanceof SplittableParDo.PrimitiveBoundedRead<?> r) {
      bounded = r.getSource();
    } else if (t instanceof Read.Bounded<?> r) {
      bounded = r.getSource();
    } else if (t instanceof SplittableParDo.PrimitiveUnboundedRead<?> r) {
      unbounded = r.getSource();
    } else if (t instanceof Read.Unbounded<?> r) {
      unbounded = r.getSource();
    } else {
      throw TransformTranslator.unsupported(node, t.getClass().getName());
    }
    BoundedSource<?> boundedSource = bounded;
    UnboundedSource<?, ?> unboundedSource = unbounded;
    OperatorNode op =
        boundedSource != null
            ? ctx.addSource(
                name,
                () -> new BoundedReadSource(boundedSource, options, metrics, ctx.reads(), name))
            : ctx.addSource(
                name,
                () ->
                    new UnboundedReadSource(
                        unboundedSource,
                        options,
                        metrics,
                        UnboundedReadSource.Limits.NONE,
                        ctx.reads(),
                        name));
    ctx.produce(node, op);
  }
}
