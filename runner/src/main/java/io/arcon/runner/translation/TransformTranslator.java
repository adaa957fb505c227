package io.arcon.runner.translation;

import org.apache.beam.sdk.runners.TransformHierarchy;

/**
 * Translates one kind of Beam transform into operators of the job graph. {@link
 * TransformTranslators} holds one per transform Arcon runs: primitives, and the composites Arcon
 * runs whole instead of translating their parts.
 */
interface TransformTranslator {

  /**
   * Whether {@code node} can become this translator's operators. A composite's translator declines
   * what it cannot run whole, and the composite's parts are translated instead; a primitive's
   * translator refuses what it cannot run by throwing {@link #unsupported}.
   */
  default boolean canTranslate(TransformHierarchy.Node node) {
    return true;
  }

  /** Adds {@code node}'s operators to the graph and records where its outputs are produced. */
  void translate(TransformHierarchy.Node node, TranslationContext ctx);

  /** The error for a transform ArconRunner cannot run; {@code what} names the transform kind. */
  static UnsupportedOperationException unsupported(TransformHierarchy.Node node, String what) {
    return new UnsupportedOperationException(
        "ArconRunner cannot run transform '" + node.getFullName() + "' (" + what + ")");
  }
}
