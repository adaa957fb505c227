package io.arcon.portability.execution;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.util.construction.PTransformTranslation;
import org.apache.beam.sdk.util.construction.graph.FusedPipeline;
import org.apache.beam.sdk.util.construction.graph.GreedyPipelineFuser;
import org.apache.beam.sdk.util.construction.graph.PipelineValidator;
import org.apache.beam.sdk.util.construction.graph.ProtoOverrides;
import org.apache.beam.sdk.util.construction.graph.SplittableParDoExpander;
import org.apache.beam.sdk.util.construction.graph.TrivialNativeTransformExpander;

/**
 * Turns a submitted portable pipeline into the fused pipeline the runner translates: checks it,
 * refuses requirements the runner cannot honour, keeps the runner's native transforms as leaves,
 * expands splittable ParDos into their sized steps and fuses the rest into executable stages.
 */
final class PortablePipelinePreparation {

  /** Transforms the runner executes itself; every other leaf runs inside an SDK harness. */
  static final Set<String> RUNNER_URNS =
      Set.of(
          PTransformTranslation.IMPULSE_TRANSFORM_URN,
          PTransformTranslation.GROUP_BY_KEY_TRANSFORM_URN,
          PTransformTranslation.FLATTEN_TRANSFORM_URN,
          PTransformTranslation.TEST_STREAM_TRANSFORM_URN);

  /** Pipeline requirements (Beam's {@code beam:requirement:*}) the runner honours. */
  static final Set<String> SUPPORTED_REQUIREMENTS =
      Set.of(
          "beam:requirement:pardo:stateful:v1",
          "beam:requirement:pardo:on_window_expiration:v1",
          "beam:requirement:pardo:time_sorted_input:v1",
          "beam:requirement:pardo:splittable_dofn:v1",
          "beam:requirement:pardo:finalization:v1",
          "beam:requirement:pardo:stable_input:v1");

  private PortablePipelinePreparation() {}

  /**
   * @throws IllegalArgumentException when the pipeline is malformed or needs what the runner does
   *     not offer
   */
  static FusedPipeline prepare(RunnerApi.Pipeline pipeline) {
    if (pipeline.getComponents().getTransformsCount() == 0) {
      throw new IllegalArgumentException(
          "The pipeline has no transforms. Submit the pipeline proto your SDK built (for Java:"
              + " PipelineTranslation.toProto(pipeline)).");
    }
    try {
      PipelineValidator.validate(pipeline);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("The pipeline proto is not valid: " + e.getMessage(), e);
    }
    Set<String> unsupported = new TreeSet<>(pipeline.getRequirementsList());
    unsupported.removeAll(SUPPORTED_REQUIREMENTS);
    if (!unsupported.isEmpty()) {
      throw new IllegalArgumentException(
          "The pipeline requires "
              + unsupported
              + ", which ArconRunner's portable execution does not offer. It offers "
              + new TreeSet<>(SUPPORTED_REQUIREMENTS)
              + ".");
    }
    RunnerApi.Pipeline expanded =
        ProtoOverrides.updateTransform(
            PTransformTranslation.PAR_DO_TRANSFORM_URN,
            pipeline,
            SplittableParDoExpander.createSizedReplacement());
    expanded = TrivialNativeTransformExpander.forKnownUrns(expanded, RUNNER_URNS);
    refuseUnknownRunnerTransforms(expanded);
    try {
      return GreedyPipelineFuser.fuse(expanded);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "The pipeline cannot be fused into executable stages: " + e.getMessage(), e);
    }
  }

  /**
   * A leaf transform without an environment is one the runner must execute itself: refuse the ones
   * it does not know, naming them, before the fuser fails on them with less to say.
   */
  private static void refuseUnknownRunnerTransforms(RunnerApi.Pipeline pipeline) {
    pipeline
        .getComponents()
        .getTransformsMap()
        .forEach(
            (id, t) -> {
              String urn = t.getSpec().getUrn();
              if (t.getSubtransformsCount() == 0
                  && t.getEnvironmentId().isEmpty()
                  && !urn.isEmpty()
                  && !RUNNER_URNS.contains(urn)
                  && !urn.equals(PTransformTranslation.PAR_DO_TRANSFORM_URN)) {
                throw new IllegalArgumentException(
                    "Transform '"
                        + (t.getUniqueName().isEmpty() ? id : t.getUniqueName())
                        + "' has URN '"
                        + urn
                        + "' and no SDK environment, so the runner would have to execute it, but"
                        + " ArconRunner executes only "
                        + new TreeSet<>(RUNNER_URNS)
                        + " itself. Give the transform an environment or use a transform the"
                        + " runner knows.");
              }
            });
  }

  /** The URNs of the environments {@code pipeline} uses, for error messages. */
  static List<String> environmentUrns(RunnerApi.Pipeline pipeline) {
    return pipeline.getComponents().getEnvironmentsMap().values().stream()
        .map(RunnerApi.Environment::getUrn)
        .distinct()
        .sorted()
        .toList();
  }
}
