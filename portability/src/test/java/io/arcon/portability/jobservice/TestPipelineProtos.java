package io.arcon.portability.jobservice;

import java.nio.file.Path;
import java.util.List;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PortablePipelineOptions;
import org.apache.beam.sdk.testing.CrashingRunner;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.util.construction.Environments;
import org.apache.beam.sdk.util.construction.PipelineTranslation;
import org.apache.beam.sdk.util.construction.SdkComponents;
import org.joda.time.Duration;

/** Portable pipelines for the tests, translated by Beam's Java SDK as a client would. */
final class TestPipelineProtos {

  private TestPipelineProtos() {}

  /**
   * Impulse → ParDo(fn), in the EMBEDDED environment (the Java SDK harness in the runner's JVM).
   */
  static RunnerApi.Pipeline impulseThen(DoFn<byte[], ?> fn) {
    PortablePipelineOptions options =
        PipelineOptionsFactory.fromArgs("--defaultEnvironmentType=EMBEDDED")
            .as(PortablePipelineOptions.class);
    // Only translated here, never run by a Java runner.
    options.setRunner(CrashingRunner.class);
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply("Impulse", Impulse.create()).apply("Fn", ParDo.of(fn));
    SdkComponents components = SdkComponents.create(options);
    components.registerEnvironment(Environments.createOrGetDefaultEnvironment(options));
    return PipelineTranslation.toProto(pipeline, components, true);
  }

  /**
   * An unbounded pipeline that never ends by itself: {@code GenerateSequence} without a limit, 100
   * elements a second, into {@code fn}.
   */
  static RunnerApi.Pipeline endlessSequenceInto(DoFn<Long, ?> fn) {
    PortablePipelineOptions options =
        PipelineOptionsFactory.fromArgs("--defaultEnvironmentType=EMBEDDED")
            .as(PortablePipelineOptions.class);
    options.setRunner(CrashingRunner.class);
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("Sequence", GenerateSequence.from(0).withRate(100, Duration.standardSeconds(1)))
        .apply("Fn", ParDo.of(fn));
    SdkComponents components = SdkComponents.create(options);
    components.registerEnvironment(Environments.createOrGetDefaultEnvironment(options));
    return PipelineTranslation.toProto(pipeline, components, true);
  }

  /** A pipeline that does nothing: one DoFn that ignores its element. */
  static RunnerApi.Pipeline trivial() {
    return impulseThen(new Ignore());
  }

  /** {@code pipeline} with every environment depending on {@code files}, to be staged. */
  static RunnerApi.Pipeline dependingOn(RunnerApi.Pipeline pipeline, List<Staged> files) {
    RunnerApi.Pipeline.Builder builder = pipeline.toBuilder();
    for (var entry : pipeline.getComponents().getEnvironmentsMap().entrySet()) {
      RunnerApi.Environment.Builder environment = entry.getValue().toBuilder().clearDependencies();
      files.forEach(file -> environment.addDependencies(file.artifact()));
      builder.getComponentsBuilder().putEnvironments(entry.getKey(), environment.build());
    }
    return builder.build();
  }

  /** A local file the client stages under {@code stagedName} (Beam's staging-to role). */
  record Staged(Path file, String stagedName) {
    RunnerApi.ArtifactInformation artifact() {
      return RunnerApi.ArtifactInformation.newBuilder()
          .setTypeUrn(ArtifactRetrievalService.FILE_ARTIFACT_URN)
          .setTypePayload(
              RunnerApi.ArtifactFilePayload.newBuilder()
                  .setPath(file.toString())
                  .build()
                  .toByteString())
          .setRoleUrn(ArtifactRetrievalService.STAGING_TO_ARTIFACT_URN)
          .setRolePayload(
              RunnerApi.ArtifactStagingToRolePayload.newBuilder()
                  .setStagedName(stagedName)
                  .build()
                  .toByteString())
          .build();
    }
  }

  static class Ignore extends DoFn<byte[], Void> {
    @ProcessElement
    public void process(@Element byte[] element) {}
  }
}
