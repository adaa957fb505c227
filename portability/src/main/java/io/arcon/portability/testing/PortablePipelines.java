package io.arcon.portability.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.ExperimentalOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PortablePipelineOptions;
import org.apache.beam.sdk.util.construction.Environments;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.util.construction.PipelineTranslation;
import org.apache.beam.sdk.util.construction.SdkComponents;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;

/** A Java pipeline as the portable job a Beam job server receives. */
final class PortablePipelines {
  /** Makes the SDK translate splittable DoFns and reads the way a portable runner expects. */
  static final String FN_API_EXPERIMENT = "beam_fn_api";

  private PortablePipelines() {}

  /**
   * Completes {@code options} for a portable submission: the EMBEDDED environment (the Java SDK
   * harness inside the job server's JVM) unless the user chose another one, no files to stage
   * unless the user listed some (an EMBEDDED harness loads the pipeline's classes from the job
   * server's own class path), and the Fn API experiment.
   */
  static PortablePipelineOptions prepareOptions(PipelineOptions options) {
    PortablePipelineOptions portable = options.as(PortablePipelineOptions.class);
    if (portable.getDefaultEnvironmentType() == null
        || portable.getDefaultEnvironmentType().isEmpty()) {
      portable.setDefaultEnvironmentType(Environments.ENVIRONMENT_EMBEDDED);
    }
    if (portable.getFilesToStage() == null) {
      portable.setFilesToStage(List.of());
    }
    ExperimentalOptions experimental = options.as(ExperimentalOptions.class);
    if (!ExperimentalOptions.hasExperiment(experimental, FN_API_EXPERIMENT)) {
      List<String> experiments =
          new ArrayList<>(
              experimental.getExperiments() == null ? List.of() : experimental.getExperiments());
      experiments.add(FN_API_EXPERIMENT);
      experimental.setExperiments(experiments);
    }
    return portable;
  }

  /** The pipeline proto, with every transform's environment taken from {@code options}. */
  static RunnerApi.Pipeline toProto(Pipeline pipeline, PipelineOptions options) {
    // Reads stay splittable DoFns (Beam's conversion to primitive reads is not applied): the
    // executor runs them in the SDK harness and has no primitive Read.
    SdkComponents components = SdkComponents.create(options);
    return PipelineTranslation.toProto(pipeline, components, false);
  }

  /** The options as the job server receives them in {@code PrepareJobRequest}. */
  static Struct optionsStruct(PipelineOptions options) {
    return PipelineOptionsTranslation.toProto(options);
  }
}
