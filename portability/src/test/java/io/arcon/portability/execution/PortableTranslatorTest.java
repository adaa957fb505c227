package io.arcon.portability.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.translation.Translation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.model.jobmanagement.v1.JobApi.PrepareJobRequest;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.fnexecution.provisioning.JobInfo;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.util.JsonFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TypeScript SDK's pipelines (the PrepareJobRequests it sends, dumped in
 * src/test/typescript/proto-dumps) translate into job graphs, and bad pipelines are refused with
 * what was wrong.
 */
class PortableTranslatorTest {

  private static PrepareJobRequest dump(String name) throws Exception {
    PrepareJobRequest.Builder request = PrepareJobRequest.newBuilder();
    JsonFormat.parser()
        .merge(
            Files.readString(
                Path.of("src/test/typescript/proto-dumps/" + name + ".prepare_job_request.json"),
                StandardCharsets.UTF_8),
            request);
    return request.build();
  }

  private static Translation translate(RunnerApi.Pipeline pipeline, PipelineOptions options)
      throws Exception {
    ArconPipelineOptions arcon = options.as(ArconPipelineOptions.class);
    arcon.setParallelism(2);
    try (JobBundles bundles =
        new JobBundles(JobInfo.create("j", "j", "", PipelineOptionsTranslation.toProto(options)))) {
      return PortableTranslator.translate(
          PortablePipelinePreparation.prepare(pipeline),
          arcon,
          new MetricsContainerStepMap(),
          bundles);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"wordcount", "windowed_sum"})
  void typeScriptPipelinesTranslate(String name) throws Exception {
    PrepareJobRequest request = dump(name);
    // The SDK's own options (registered_node_modules, ...) are kept, not refused.
    PipelineOptions options = PipelineOptionsTranslation.fromProto(request.getPipelineOptions());
    Translation t = translate(request.getPipeline(), options);
    String graph = t.graph().describe();
    assertEquals(2, t.statefulSteps().size(), graph);
    assertTrue(
        t.statefulSteps().stream().allMatch(s -> s.kind().name().equals("GROUP_BY_KEY")), graph);
  }

  @Test
  void anUnknownRequirementIsRefused() throws Exception {
    RunnerApi.Pipeline pipeline =
        dump("wordcount").getPipeline().toBuilder()
            .addRequirements("beam:requirement:teleport:v1")
            .build();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PortablePipelinePreparation.prepare(pipeline));
    assertTrue(e.getMessage().contains("beam:requirement:teleport:v1"), e.getMessage());
  }

  @Test
  void anEmptyPipelineIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PortablePipelinePreparation.prepare(RunnerApi.Pipeline.getDefaultInstance()));
    assertTrue(e.getMessage().contains("no transforms"), e.getMessage());
  }

  @Test
  void anUnknownEnvironmentIsRefused() throws Exception {
    RunnerApi.Pipeline pipeline = dump("wordcount").getPipeline();
    RunnerApi.Components.Builder components = pipeline.getComponents().toBuilder();
    for (String id : pipeline.getComponents().getEnvironmentsMap().keySet()) {
      components.putEnvironments(
          id, RunnerApi.Environment.newBuilder().setUrn("beam:env:moon:v1").build());
    }
    RunnerApi.Pipeline onTheMoon = pipeline.toBuilder().setComponents(components).build();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                translate(onTheMoon, org.apache.beam.sdk.options.PipelineOptionsFactory.create()));
    assertTrue(e.getMessage().contains("beam:env:moon:v1"), e.getMessage());
  }

  @Test
  void anUnknownRunnerTransformIsRefused() throws Exception {
    RunnerApi.Pipeline pipeline = dump("wordcount").getPipeline();
    RunnerApi.Components.Builder components = pipeline.getComponents().toBuilder();
    // The Impulse becomes a transform no SDK or runner knows, without an environment.
    pipeline
        .getComponents()
        .getTransformsMap()
        .forEach(
            (id, t) -> {
              if (t.getSpec().getUrn().equals("beam:transform:impulse:v1")) {
                components.putTransforms(
                    id,
                    t.toBuilder()
                        .setSpec(t.getSpec().toBuilder().setUrn("beam:transform:teleport:v1"))
                        .build());
              }
            });
    RunnerApi.Pipeline bad = pipeline.toBuilder().setComponents(components).build();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> translate(bad, org.apache.beam.sdk.options.PipelineOptionsFactory.create()));
    assertTrue(e.getMessage().contains("beam:transform:teleport:v1"), e.getMessage());
  }
}
