package io.arcon.runner.translation;

import io.arcon.runner.operators.ImpulseSource;
import org.apache.beam.sdk.runners.TransformHierarchy;

/** An Impulse becomes an {@link ImpulseSource} heading its own chain. */
final class ImpulseTranslator implements TransformTranslator {

  @Override
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    ctx.produce(node, ctx.addSource(node.getFullName(), ImpulseSource::new));
  }
}
