package io.arcon.portability.typescript;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.beam.model.jobmanagement.v1.JobApi.PrepareJobRequest;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.construction.BeamUrns;
import org.apache.beam.sdk.util.construction.RehydratedComponents;
import org.apache.beam.sdk.util.construction.WindowingStrategyTranslation;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;
import org.apache.beam.sdk.util.construction.graph.FusedPipeline;
import org.apache.beam.sdk.util.construction.graph.GreedyPipelineFuser;
import org.apache.beam.sdk.util.construction.graph.PipelineNode;
import org.apache.beam.sdk.util.construction.graph.PipelineValidator;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.util.JsonFormat;
import org.joda.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed dumps of what the TypeScript SDK sends to a job server ({@code
 * src/test/typescript/proto-dumps/}, see NOTES.md there) are valid {@code PrepareJobRequest}s that
 * Beam's Java pipeline code reads: the executor's tests can use them without node. Regenerate them
 * with {@code npm run dump-protos} in {@code src/test/typescript}.
 */
class ProtoDumpsTest {
  private static final Path DUMPS = Path.of("src/test/typescript/proto-dumps");

  static Stream<Path> dumps() throws IOException {
    try (Stream<Path> files = Files.list(DUMPS)) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
    }
  }

  static PrepareJobRequest read(Path dump) throws IOException {
    PrepareJobRequest.Builder request = PrepareJobRequest.newBuilder();
    JsonFormat.parser().merge(Files.readString(dump, StandardCharsets.UTF_8), request);
    return request.build();
  }

  @ParameterizedTest
  @MethodSource("dumps")
  void isAValidPipelineWithALoopbackEnvironment(Path dump) throws Exception {
    RunnerApi.Pipeline pipeline = read(dump).getPipeline();
    PipelineValidator.validate(pipeline);

    Map<String, RunnerApi.Environment> environments = pipeline.getComponents().getEnvironmentsMap();
    assertFalse(environments.isEmpty());
    for (RunnerApi.Environment environment : environments.values()) {
      assertEquals(
          BeamUrns.getUrn(RunnerApi.StandardEnvironments.Environments.EXTERNAL),
          environment.getUrn());
      String endpoint =
          RunnerApi.ExternalPayload.parseFrom(environment.getPayload()).getEndpoint().getUrl();
      assertTrue(endpoint.startsWith("localhost:"), endpoint);
    }
  }

  @ParameterizedTest
  @MethodSource("dumps")
  void windowingStrategiesAreGlobalOrTenSecondFixedWindows(Path dump) throws Exception {
    RunnerApi.Components components = read(dump).getPipeline().getComponents();
    RehydratedComponents rehydrated = RehydratedComponents.forComponents(components);
    for (RunnerApi.WindowingStrategy proto : components.getWindowingStrategiesMap().values()) {
      WindowFn<?, ?> windowFn =
          WindowingStrategyTranslation.fromProto(proto, rehydrated).getWindowFn();
      assertTrue(
          windowFn instanceof GlobalWindows
              || windowFn.equals(FixedWindows.of(Duration.standardSeconds(10))),
          windowFn.toString());
    }
  }

  /**
   * Beam's fuser turns each pipeline into SDK stages (all in the LOOPBACK environment) around
   * runner-executed impulse and GroupByKey; combine_per_key is run as its GroupByKey + ParDo.
   */
  @ParameterizedTest
  @MethodSource("dumps")
  void fusesIntoSdkStagesAroundImpulseAndGroupByKey(Path dump) throws Exception {
    FusedPipeline fused = GreedyPipelineFuser.fuse(read(dump).getPipeline());
    Set<String> runnerUrns =
        fused.getRunnerExecutedTransforms().stream()
            .map(t -> t.getTransform().getSpec().getUrn())
            .collect(Collectors.toSet());
    assertEquals(Set.of("beam:transform:impulse:v1", "beam:transform:group_by_key:v1"), runnerUrns);
    assertFalse(fused.getFusedStages().isEmpty());
    for (ExecutableStage stage : fused.getFusedStages()) {
      assertEquals("beam:env:external:v1", stage.getEnvironment().getUrn());
      for (PipelineNode.PTransformNode transform : stage.getTransforms()) {
        assertEquals("beam:transform:pardo:v1", transform.getTransform().getSpec().getUrn());
      }
    }
  }
}
