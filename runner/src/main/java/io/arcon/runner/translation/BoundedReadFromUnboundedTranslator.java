package io.arcon.runner.translation;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.operators.UnboundedReadSource;
import org.apache.beam.sdk.io.BoundedReadFromUnboundedSource;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.runners.TransformHierarchy;

/**
 * Runs the composite {@link BoundedReadFromUnboundedSource} whole, as one limited {@link
 * UnboundedReadSource}.
 *
 * <p>Beam expands a bounded read of an unbounded source into one blocking DoFn call per split (100
 * splits by default, each reading up to its time limit), which at low parallelism runs the splits
 * one after another; read as a limited unbounded source, they all progress together. When the
 * read's settings cannot be found (see {@link BoundedUnboundedRead}) Beam's expansion runs instead.
 */
final class BoundedReadFromUnboundedTranslator implements TransformTranslator {

  @Override
  public boolean canTranslate(TransformHierarchy.Node node) {
    return settings(node) != null;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    BoundedUnboundedRead spec = settings(node);
    ArconPipelineOptions options = ctx.options();
    var metrics = ctx.metricsFor(node.getFullName());
    UnboundedSource<?, ?> source = spec.source();
    UnboundedReadSource.Limits limits = spec.limits();
    ctx.produce(
        node,
        ctx.addSource(
            node.getFullName(),
            () ->
                new UnboundedReadSource(
                    source, options, metrics, limits, ctx.reads(), node.getFullName())));
  }

  private static BoundedUnboundedRead settings(TransformHierarchy.Node node) {
    return BoundedUnboundedRead.of((BoundedReadFromUnboundedSource<?>) node.getTransform());
  }
}
