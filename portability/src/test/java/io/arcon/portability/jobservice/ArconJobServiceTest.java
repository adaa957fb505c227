package io.arcon.portability.jobservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.portability.jobservice.TestPipelineProtos.Staged;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobMessage.MessageImportance;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobState;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Job Service over real gRPC on free ports, with jobs whose course the test decides ({@link
 * ControlledJob}).
 */
class ArconJobServiceTest {

  @TempDir Path temp;

  private final ControlledJobs starter = new ControlledJobs();
  private ArconJobServer server;
  private JobServiceClient client;

  @BeforeEach
  void start() {
    server =
        ArconJobServer.start(
            JobServerConfig.ephemeral()
                .withStagingDir(temp.resolve("staging"))
                .withJobStarter(starter));
    client = new JobServiceClient(server);
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.close();
  }

  @Test
  void runResolvesEachEnvironmentsDependenciesToTheStagedFiles() throws Exception {
    Path jar = Files.writeString(temp.resolve("udf.jar"), "jar bytes");
    Path data = Files.writeString(temp.resolve("lookup.txt"), "lookup table");
    RunnerApi.Pipeline pipeline =
        TestPipelineProtos.dependingOn(
            TestPipelineProtos.trivial(),
            List.of(new Staged(jar, "udf.jar"), new Staged(data, "lookup.txt")));

    JobApi.PrepareJobResponse preparation = client.prepare("deps", pipeline);
    assertEquals(server.artifactEndpoint(), preparation.getArtifactStagingEndpoint().getUrl());
    client.stage(preparation);
    String jobId = client.run(preparation);

    ControlledJob job = starter.next();
    assertEquals(jobId, job.spec.jobId());
    assertEquals("deps", job.spec.jobName());
    assertEquals(preparation.getStagingSessionToken(), job.spec.retrievalToken());
    Path sessionDir = server.stagingDir().resolve(preparation.getStagingSessionToken());
    for (RunnerApi.Environment environment :
        job.spec.pipeline().getComponents().getEnvironmentsMap().values()) {
      List<String> contents = new ArrayList<>();
      for (RunnerApi.ArtifactInformation artifact : environment.getDependenciesList()) {
        assertEquals(ArtifactRetrievalService.FILE_ARTIFACT_URN, artifact.getTypeUrn());
        Path staged =
            Path.of(RunnerApi.ArtifactFilePayload.parseFrom(artifact.getTypePayload()).getPath());
        assertEquals(sessionDir, staged.getParent(), "staged in the job's directory");
        contents.add(Files.readString(staged));
        // The role (the name the SDK harness gives the file) is kept.
        assertEquals(ArtifactRetrievalService.STAGING_TO_ARTIFACT_URN, artifact.getRoleUrn());
      }
      assertEquals(List.of("jar bytes", "lookup table"), contents);
    }
    // GetPipeline answers with the pipeline as it runs.
    assertEquals(
        job.spec.pipeline(),
        client
            .jobs
            .getPipeline(JobApi.GetJobPipelineRequest.newBuilder().setJobId(jobId).build())
            .getPipeline());
    job.finish();
  }

  @Test
  void stateStreamFollowsTheJobToItsEnd() throws Exception {
    String jobId = client.submit("states", TestPipelineProtos.trivial());
    ControlledJob job = starter.next();
    Iterator<JobApi.JobStateEvent> stream =
        client.jobs.getStateStream(JobServiceClient.stateRequest(jobId));
    List<JobState.Enum> states = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      states.add(stream.next().getState());
    }
    assertEquals(
        List.of(JobState.Enum.STOPPED, JobState.Enum.STARTING, JobState.Enum.RUNNING), states);
    assertEquals(
        JobState.Enum.RUNNING,
        client.jobs.getState(JobServiceClient.stateRequest(jobId)).getState());

    job.finish();

    stream.forEachRemaining(event -> states.add(event.getState()));
    assertEquals(JobState.Enum.DONE, states.get(states.size() - 1));
    assertEquals(4, states.size(), "every state once: " + states);
    assertEquals(
        JobState.Enum.DONE, client.jobs.getState(JobServiceClient.stateRequest(jobId)).getState());
    // A stream opened after the end replays the states and completes.
    List<JobState.Enum> replayed = new ArrayList<>();
    client
        .jobs
        .getStateStream(JobServiceClient.stateRequest(jobId))
        .forEachRemaining(event -> replayed.add(event.getState()));
    assertEquals(states, replayed);
  }

  @Test
  void aFailedJobsMessageStreamCarriesTheErrorAndItsCausesBeforeFailed() throws Exception {
    String jobId = client.submit("fails", TestPipelineProtos.trivial());
    ControlledJob job = starter.next();
    job.fail(
        new RuntimeException(
            "Error received from SDK harness for instruction 7: Traceback ... ValueError: bad row",
            new IllegalStateException("bundle 7 aborted")));

    List<JobApi.JobMessagesResponse> events = new ArrayList<>();
    client
        .jobs
        .getMessageStream(JobApi.JobMessagesRequest.newBuilder().setJobId(jobId).build())
        .forEachRemaining(events::add);

    JobApi.JobMessagesResponse last = events.get(events.size() - 1);
    assertEquals(JobState.Enum.FAILED, last.getStateResponse().getState());
    List<JobApi.JobMessage> errors =
        events.stream()
            .filter(JobApi.JobMessagesResponse::hasMessageResponse)
            .map(JobApi.JobMessagesResponse::getMessageResponse)
            .filter(m -> m.getImportance() == MessageImportance.JOB_MESSAGE_ERROR)
            .toList();
    assertEquals(1, errors.size(), "one error message: " + events);
    String text = errors.get(0).getMessageText();
    assertTrue(text.contains("ValueError: bad row"), text);
    assertTrue(text.contains("Caused by: java.lang.IllegalStateException: bundle 7 aborted"), text);
    assertEquals(
        JobState.Enum.FAILED,
        client.jobs.getState(JobServiceClient.stateRequest(jobId)).getState());
  }

  @Test
  void cancelStopsTheJob() throws Exception {
    String jobId = client.submit("cancelled", TestPipelineProtos.trivial());
    starter.next();

    JobApi.CancelJobResponse response =
        client.jobs.cancel(JobApi.CancelJobRequest.newBuilder().setJobId(jobId).build());

    // ControlledJob stops as soon as it is cancelled.
    assertEquals(JobState.Enum.CANCELLED, response.getState());
    List<JobState.Enum> states = new ArrayList<>();
    client
        .jobs
        .getStateStream(JobServiceClient.stateRequest(jobId))
        .forEachRemaining(event -> states.add(event.getState()));
    assertEquals(
        List.of(
            JobState.Enum.STOPPED,
            JobState.Enum.STARTING,
            JobState.Enum.RUNNING,
            JobState.Enum.CANCELLING,
            JobState.Enum.CANCELLED),
        states);
    // Cancelling an ended job changes nothing.
    assertEquals(
        JobState.Enum.CANCELLED,
        client
            .jobs
            .cancel(JobApi.CancelJobRequest.newBuilder().setJobId(jobId).build())
            .getState());
  }

  @Test
  void metricsAreTheJobsMonitoringInfosAsAttemptedAndCommitted() throws Exception {
    String jobId = client.submit("metrics", TestPipelineProtos.trivial());
    ControlledJob job = starter.next();
    MetricsApi.MonitoringInfo counter =
        MetricsApi.MonitoringInfo.newBuilder()
            .setUrn("beam:metric:user:sum_int64:v1")
            .setType("beam:metrics:sum_int64:v1")
            .putLabels("PTRANSFORM", "Fn")
            .putLabels("NAMESPACE", "test")
            .putLabels("NAME", "rows")
            .build();
    job.metrics.add(counter);

    JobApi.MetricResults metrics =
        client
            .jobs
            .getJobMetrics(JobApi.GetJobMetricsRequest.newBuilder().setJobId(jobId).build())
            .getMetrics();

    assertEquals(List.of(counter), metrics.getAttemptedList());
    assertEquals(List.of(counter), metrics.getCommittedList());
    job.finish();
  }

  @Test
  void getJobsListsTheJobsWithNameAndState() throws Exception {
    String first = client.submit("first", TestPipelineProtos.trivial());
    starter.next().finish();
    client.jobs.getStateStream(JobServiceClient.stateRequest(first)).forEachRemaining(e -> {});
    String second = client.submit("second", TestPipelineProtos.trivial());
    ControlledJob running = starter.next();

    List<JobApi.JobInfo> jobs =
        client.jobs.getJobs(JobApi.GetJobsRequest.getDefaultInstance()).getJobInfoList();

    assertEquals(2, jobs.size());
    for (JobApi.JobInfo info : jobs) {
      if (info.getJobId().equals(first)) {
        assertEquals("first", info.getJobName());
        assertEquals(JobState.Enum.DONE, info.getState());
      } else {
        assertEquals(second, info.getJobId());
        assertEquals("second", info.getJobName());
        assertEquals(JobState.Enum.RUNNING, info.getState());
      }
    }
    running.finish();
  }

  @Test
  void unknownJobIdsAreNotFound() {
    String unknown = "no-such-job";
    List<Executable> calls =
        List.of(
            () -> client.jobs.getState(JobServiceClient.stateRequest(unknown)),
            () -> client.jobs.getStateStream(JobServiceClient.stateRequest(unknown)).hasNext(),
            () ->
                client
                    .jobs
                    .getMessageStream(
                        JobApi.JobMessagesRequest.newBuilder().setJobId(unknown).build())
                    .hasNext(),
            () ->
                client.jobs.cancel(JobApi.CancelJobRequest.newBuilder().setJobId(unknown).build()),
            () ->
                client.jobs.getPipeline(
                    JobApi.GetJobPipelineRequest.newBuilder().setJobId(unknown).build()),
            () ->
                client.jobs.getJobMetrics(
                    JobApi.GetJobMetricsRequest.newBuilder().setJobId(unknown).build()));
    for (Executable call : calls) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
      assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().contains(unknown), e.getMessage());
    }
  }

  @Test
  void runOfAnUnknownOrAlreadyRunPreparationIsInvalid() throws Exception {
    StatusRuntimeException unknown =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                client.jobs.run(
                    JobApi.RunJobRequest.newBuilder().setPreparationId("never-prepared").build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, unknown.getStatus().getCode());
    assertTrue(unknown.getStatus().getDescription().contains("never-prepared"));
    assertTrue(unknown.getStatus().getDescription().contains("call Prepare first"));

    JobApi.PrepareJobResponse preparation = client.prepare("once", TestPipelineProtos.trivial());
    client.stage(preparation);
    client.run(preparation);
    starter.next().finish();
    StatusRuntimeException again =
        assertThrows(StatusRuntimeException.class, () -> client.run(preparation));
    assertEquals(Status.Code.INVALID_ARGUMENT, again.getStatus().getCode());
  }

  @Test
  void aPipelineWithoutTransformsIsInvalid() throws Exception {
    assertRunRefused(
        RunnerApi.Pipeline.getDefaultInstance(), Status.Code.INVALID_ARGUMENT, "no transforms");
  }

  @Test
  void aPipelineWithADanglingPCollectionIsInvalid() throws Exception {
    RunnerApi.Pipeline pipeline = TestPipelineProtos.trivial();
    String parDo =
        pipeline.getComponents().getTransformsMap().entrySet().stream()
            .filter(e -> e.getValue().getSpec().getUrn().equals("beam:transform:pardo:v1"))
            .findFirst()
            .orElseThrow()
            .getKey();
    RunnerApi.Pipeline.Builder broken = pipeline.toBuilder();
    RunnerApi.PTransform transform = pipeline.getComponents().getTransformsOrThrow(parDo);
    broken
        .getComponentsBuilder()
        .putTransforms(
            parDo, transform.toBuilder().putInputs("extra", "no-such-pcollection").build());
    assertRunRefused(broken.build(), Status.Code.INVALID_ARGUMENT, "malformed pipeline");
  }

  @Test
  void theRunnersRefusalIsInvalidArgumentWithItsMessage() throws Exception {
    restartWith(
        spec -> {
          throw new IllegalArgumentException(
              "DOCKER environments are not supported; use --environment_type=LOOPBACK");
        });
    assertRunRefused(
        TestPipelineProtos.trivial(),
        Status.Code.INVALID_ARGUMENT,
        "DOCKER environments are not supported; use --environment_type=LOOPBACK");
  }

  @Test
  void anUnsupportedJobIsUnimplemented() throws Exception {
    restartWith(
        spec -> {
          throw new UnsupportedOperationException("splittable DoFns are not supported yet");
        });
    assertRunRefused(
        TestPipelineProtos.trivial(),
        Status.Code.UNIMPLEMENTED,
        "splittable DoFns are not supported yet");
  }

  @Test
  void runRefusesDependenciesThatWereNotStaged() throws Exception {
    Path jar = Files.writeString(temp.resolve("udf.jar"), "jar bytes");
    RunnerApi.Pipeline pipeline =
        TestPipelineProtos.dependingOn(
            TestPipelineProtos.trivial(), List.of(new Staged(jar, "udf.jar")));
    JobApi.PrepareJobResponse preparation = client.prepare("unstaged", pipeline);
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.run(preparation));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("none were staged"), e.getMessage());
  }

  @Test
  void theJobsStagedArtifactsAreDeletedWhenItEnds() throws Exception {
    Path jar = Files.write(temp.resolve("udf.jar"), "jar".getBytes(StandardCharsets.UTF_8));
    for (Consumer<ControlledJob> end :
        List.<Consumer<ControlledJob>>of(
            ControlledJob::finish, job -> job.fail(new RuntimeException("boom")))) {
      JobApi.PrepareJobResponse preparation =
          client.prepare(
              "cleanup",
              TestPipelineProtos.dependingOn(
                  TestPipelineProtos.trivial(), List.of(new Staged(jar, "udf.jar"))));
      Path sessionDir = server.stagingDir().resolve(preparation.getStagingSessionToken());
      client.stage(preparation);
      String jobId = client.run(preparation);
      ControlledJob job = starter.next();
      try (var files = Files.list(sessionDir)) {
        assertEquals(1, files.count(), "staged while running");
      }

      end.accept(job);
      client.jobs.getStateStream(JobServiceClient.stateRequest(jobId)).forEachRemaining(e -> {});

      // The cleanup precedes the terminal state.
      assertFalse(Files.exists(sessionDir), sessionDir + " deleted after the job ended");
    }
  }

  @Test
  void aRefusedRunDeletesItsStagedArtifacts() throws Exception {
    restartWith(
        spec -> {
          throw new IllegalArgumentException("refused");
        });
    Path jar = Files.writeString(temp.resolve("udf.jar"), "jar bytes");
    JobApi.PrepareJobResponse preparation =
        client.prepare(
            "refused",
            TestPipelineProtos.dependingOn(
                TestPipelineProtos.trivial(), List.of(new Staged(jar, "udf.jar"))));
    client.stage(preparation);
    assertThrows(StatusRuntimeException.class, () -> client.run(preparation));
    assertFalse(Files.exists(server.stagingDir().resolve(preparation.getStagingSessionToken())));
  }

  @Test
  void aPreparationNeverRunExpiresWithItsArtifacts() throws Exception {
    client.close();
    server.close();
    server =
        ArconJobServer.start(
            JobServerConfig.ephemeral()
                .withStagingDir(temp.resolve("staging"))
                .withPreparationTimeout(java.time.Duration.ofMillis(200))
                .withJobStarter(starter));
    client = new JobServiceClient(server);
    JobApi.PrepareJobResponse preparation =
        client.prepare("forgotten", TestPipelineProtos.trivial());
    Path sessionDir = server.stagingDir().resolve(preparation.getStagingSessionToken());

    waitUntil(() -> !Files.exists(sessionDir), "the expired preparation's directory is deleted");

    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.run(preparation));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
  }

  @Test
  void describePipelineOptionsListsTheRunnersAndThePortableOptions() {
    List<String> names =
        client
            .jobs
            .describePipelineOptions(JobApi.DescribePipelineOptionsRequest.getDefaultInstance())
            .getOptionsList()
            .stream()
            .map(JobApi.PipelineOptionDescriptor::getName)
            .toList();
    for (String option : List.of("parallelism", "state_backend", "default_environment_type")) {
      assertTrue(names.contains(option), option + " in " + names);
    }
  }

  @Test
  void closeCancelsRunningJobsAndDeletesATemporaryStagingDir() throws Exception {
    client.close();
    server.close();
    server = ArconJobServer.start(JobServerConfig.ephemeral().withJobStarter(starter));
    client = new JobServiceClient(server);
    Path stagingDir = server.stagingDir();
    client.submit("running", TestPipelineProtos.trivial());
    ControlledJob job = starter.next();

    server.close();

    assertEquals(org.apache.beam.sdk.PipelineResult.State.CANCELLED, job.termination().join());
    assertFalse(Files.exists(stagingDir), stagingDir + " deleted");
  }

  private void restartWith(JobStarter jobStarter) throws InterruptedException {
    client.close();
    server.close();
    server =
        ArconJobServer.start(
            JobServerConfig.ephemeral()
                .withStagingDir(temp.resolve("staging"))
                .withJobStarter(jobStarter));
    client = new JobServiceClient(server);
  }

  private void assertRunRefused(RunnerApi.Pipeline pipeline, Status.Code code, String message)
      throws Exception {
    JobApi.PrepareJobResponse preparation = client.prepare("refused", pipeline);
    client.stage(preparation);
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.run(preparation));
    assertEquals(code, e.getStatus().getCode(), e.getMessage());
    assertTrue(e.getStatus().getDescription().contains(message), e.getMessage());
  }

  static void waitUntil(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("gave up waiting: " + what);
      }
      Thread.sleep(20);
    }
  }
}
