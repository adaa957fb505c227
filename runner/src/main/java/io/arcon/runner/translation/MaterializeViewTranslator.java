package io.arcon.runner.translation;

import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.values.PCollection;

/**
 * {@link CreateArconView.MaterializeView} adds no operator: it records that its input's panes are
 * the view's content (broadcast to the side input's consumers) and passes them through.
 */
final class MaterializeViewTranslator implements TransformTranslator {

  @Override
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    CreateArconView.MaterializeView<?, ?> materialize =
        (CreateArconView.MaterializeView<?, ?>) node.getTransform();
    PCollection<?> panes = TransformNodes.onlyInput(node);
    ctx.registerViewPanes(materialize.view(), panes);
    TranslationContext.Producer p = ctx.producer(panes);
    ctx.setProducer(TransformNodes.onlyOutput(node), p.vertex(), p.operator(), p.output());
  }
}
