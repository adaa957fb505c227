package io.arcon.runner.translation;

import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Combine;

/**
 * Chooses how a {@link Combine.PerKey} runs whole: lifted (a partial combine before the shuffle)
 * where it may be, else as a combining GroupByKey; a combine neither can run is expanded into its
 * GroupByKey.
 */
final class CombinePerKeyTranslator implements TransformTranslator {
  private final LiftedCombineTranslator lifted = new LiftedCombineTranslator();
  private final CombiningGroupByKeyTranslator combining = new CombiningGroupByKeyTranslator();

  @Override
  public boolean canTranslate(TransformHierarchy.Node node) {
    return lifted.canTranslate(node) || combining.canTranslate(node);
  }

  @Override
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    if (lifted.canTranslate(node)) {
      lifted.translate(node, ctx);
    } else {
      combining.translate(node, ctx);
    }
  }
}
