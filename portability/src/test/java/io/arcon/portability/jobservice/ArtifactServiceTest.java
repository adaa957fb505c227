package io.arcon.portability.jobservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.portability.jobservice.TestPipelineProtos.Staged;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.model.jobmanagement.v1.ArtifactApi;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Artifact staging and retrieval on the artifact port, over real gRPC. */
class ArtifactServiceTest {

  @TempDir Path temp;

  private final ControlledJobs starter = new ControlledJobs();
  private ArconJobServer server;
  private JobServiceClient client;

  @BeforeEach
  void start() {
    server =
        ArconJobServer.start(
            JobServerConfig.ephemeral()
                .withStagingDir(temp.resolve("server/staging"))
                .withJobStarter(starter));
    client = new JobServiceClient(server);
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.close();
  }

  @Test
  void stagedNamesThatClimbOutStayInTheJobsDirectory() throws Exception {
    Path payload = Files.writeString(temp.resolve("payload"), "owned");
    List<String> names =
        List.of("../../../../escaped", "/tmp/absolute", "..", "../server/planted.jar");
    RunnerApi.Pipeline pipeline =
        TestPipelineProtos.dependingOn(
            TestPipelineProtos.trivial(),
            names.stream().map(name -> new Staged(payload, name)).toList());

    JobApi.PrepareJobResponse preparation = client.prepare("traversal", pipeline);
    client.stage(preparation);
    client.run(preparation);
    ControlledJob job = starter.next();

    Path sessionDir = server.stagingDir().resolve(preparation.getStagingSessionToken());
    int environments = pipeline.getComponents().getEnvironmentsCount();
    try (Stream<Path> files = Files.list(sessionDir)) {
      assertEquals(names.size() * environments, files.count(), "every artifact in " + sessionDir);
    }
    try (Stream<Path> files = Files.walk(temp)) {
      List<Path> outside =
          files
              .filter(Files::isRegularFile)
              .filter(f -> !f.startsWith(sessionDir) && !f.equals(payload))
              .toList();
      assertEquals(List.of(), outside, "files written outside the job's directory");
    }
    for (RunnerApi.Environment environment :
        job.spec.pipeline().getComponents().getEnvironmentsMap().values()) {
      for (RunnerApi.ArtifactInformation artifact : environment.getDependenciesList()) {
        Path staged =
            Path.of(RunnerApi.ArtifactFilePayload.parseFrom(artifact.getTypePayload()).getPath());
        assertEquals(sessionDir, staged.getParent());
        assertEquals("owned", Files.readString(staged));
      }
    }
    job.finish();
  }

  @Test
  void retrievalServesStagedFilesOnly() throws Exception {
    Path jar = Files.writeString(temp.resolve("udf.jar"), "staged bytes");
    JobApi.PrepareJobResponse preparation =
        client.prepare(
            "retrieval",
            TestPipelineProtos.dependingOn(
                TestPipelineProtos.trivial(), List.of(new Staged(jar, "udf.jar"))));
    client.stage(preparation);
    client.run(preparation);
    ControlledJob job = starter.next();
    RunnerApi.ArtifactInformation staged =
        job.spec
            .pipeline()
            .getComponents()
            .getEnvironmentsMap()
            .values()
            .iterator()
            .next()
            .getDependencies(0);

    assertEquals("staged bytes", fetch(staged));

    Path secret = Files.writeString(temp.resolve("server/secret.txt"), "private");
    for (RunnerApi.ArtifactInformation outside :
        List.of(
            fileArtifact(secret),
            fileArtifact(
                server
                    .stagingDir()
                    .resolve(preparation.getStagingSessionToken())
                    .resolve("../../secret.txt")),
            RunnerApi.ArtifactInformation.newBuilder()
                .setTypeUrn(ArtifactRetrievalService.URL_ARTIFACT_URN)
                .setTypePayload(
                    RunnerApi.ArtifactUrlPayload.newBuilder()
                        .setUrl("http://169.254.169.254/")
                        .build()
                        .toByteString())
                .build())) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> fetch(outside));
      assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), e.getMessage());
    }
    job.finish();
  }

  @Test
  void stagingWithAnUnknownTokenIsRefused() {
    JobApi.PrepareJobResponse fake =
        JobApi.PrepareJobResponse.newBuilder().setStagingSessionToken("not-a-session").build();
    Exception e = assertThrows(Exception.class, () -> client.stage(fake));
    assertTrue(e.getMessage().contains("not-a-session"), e.getMessage());
    assertFalse(Files.exists(server.stagingDir().resolve("not-a-session")));
  }

  private static RunnerApi.ArtifactInformation fileArtifact(Path path) {
    return RunnerApi.ArtifactInformation.newBuilder()
        .setTypeUrn(ArtifactRetrievalService.FILE_ARTIFACT_URN)
        .setTypePayload(
            RunnerApi.ArtifactFilePayload.newBuilder()
                .setPath(path.toString())
                .build()
                .toByteString())
        .build();
  }

  private String fetch(RunnerApi.ArtifactInformation artifact) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    client
        .retrieval
        .getArtifact(ArtifactApi.GetArtifactRequest.newBuilder().setArtifact(artifact).build())
        .forEachRemaining(chunk -> bytes.writeBytes(chunk.getData().toByteArray()));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
