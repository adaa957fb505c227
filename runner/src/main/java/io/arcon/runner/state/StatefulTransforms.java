package io.arcon.runner.state;

import io.arcon.runner.translation.PipelineTranslator;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.core.SplittableParDoViaKeyedWorkItems;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.util.construction.PTransformTranslation;

/**
 * Finds the full names of the transforms that keep keyed state, exactly as {@link
 * PipelineTranslator} names the steps it asks a state engine for: stateful ParDos (state or
 * timers), GroupByKeys, lifted Combine.PerKeys (under the composite's name) and the process step of
 * splittable DoFns. Run it on the pipeline after Arcon's overrides, like the translator.
 */
public final class StatefulTransforms extends Pipeline.PipelineVisitor.Defaults {
  private final List<String> names = new ArrayList<>();

  private StatefulTransforms() {}

  /** The stateful transforms' full names in topological order. */
  public static List<String> of(Pipeline pipeline) {
    StatefulTransforms visitor = new StatefulTransforms();
    pipeline.traverseTopologically(visitor);
    return List.copyOf(visitor.names);
  }

  @Override
  public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
    if (node.getTransform() instanceof Combine.PerKey<?, ?, ?> perKey
        && PipelineTranslator.isLiftable(node, perKey)) {
      names.add(node.getFullName());
      return CompositeBehavior.DO_NOT_ENTER_TRANSFORM;
    }
    return CompositeBehavior.ENTER_TRANSFORM;
  }

  @Override
  public void visitPrimitiveTransform(TransformHierarchy.Node node) {
    if (isStateful(node.getTransform())) {
      names.add(node.getFullName());
    }
  }

  private static boolean isStateful(PTransform<?, ?> transform) {
    if (transform instanceof SplittableParDoViaKeyedWorkItems.ProcessElements<?, ?, ?, ?, ?>) {
      return true;
    }
    if (transform instanceof ParDo.MultiOutput<?, ?> pardo) {
      DoFnSignature signature = DoFnSignatures.getSignature(pardo.getFn().getClass());
      return signature.usesState() || signature.usesTimers();
    }
    return PTransformTranslation.GROUP_BY_KEY_TRANSFORM_URN.equals(
        PTransformTranslation.urnForTransformOrNull(transform));
  }
}
