package io.arcon.portability.jobservice;

import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.util.construction.graph.PipelineValidator;

/**
 * The cheap structural check a submitted pipeline passes before it is started: it has transforms,
 * and Beam's {@link PipelineValidator} accepts it (every referenced transform, PCollection, coder,
 * windowing strategy and environment exists; known transforms have well-formed payloads). Whether
 * the runner supports every transform is the executor's call.
 */
final class PipelineStructure {

  private PipelineStructure() {}

  /**
   * @throws IllegalArgumentException saying what is wrong with {@code pipeline}
   */
  static void check(RunnerApi.Pipeline pipeline) {
    if (pipeline.getRootTransformIdsCount() == 0
        || pipeline.getComponents().getTransformsCount() == 0) {
      throw new IllegalArgumentException(
          "the pipeline has no transforms (root transforms: "
              + pipeline.getRootTransformIdsCount()
              + ", transforms: "
              + pipeline.getComponents().getTransformsCount()
              + "); submit a pipeline built with a Beam SDK, which has at least one");
    }
    for (String root : pipeline.getRootTransformIdsList()) {
      if (!pipeline.getComponents().containsTransforms(root)) {
        throw new IllegalArgumentException(
            "malformed pipeline: root transform '" + root + "' is not among its transforms");
      }
    }
    try {
      PipelineValidator.validate(pipeline);
    } catch (RuntimeException e) {
      // The validator reports through Preconditions (IllegalArgumentException or
      // IllegalStateException) and, for some missing components, NullPointerException.
      throw new IllegalArgumentException(
          "malformed pipeline: "
              + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()),
          e);
    }
  }
}
