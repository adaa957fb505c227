package io.arcon.portability.jobservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobMessage.MessageImportance;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobState;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.PortablePipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.util.construction.Environments;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Value;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java pipelines submitted through the job API and run by the Arcon executor, in the EMBEDDED
 * environment (the Java SDK harness in this JVM).
 */
class EndToEndTest {

  @TempDir Path temp;

  private ArconJobServer server;
  private JobServiceClient client;

  @BeforeEach
  void start() {
    server = ArconJobServer.start(JobServerConfig.ephemeral().withStagingDir(temp));
    client = new JobServiceClient(server);
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.close();
  }

  @Test
  void aTinyPipelineReachesDone() throws Exception {
    String jobId = submit("tiny", TestPipelineProtos.impulseThen(new CountElements()));

    List<JobState.Enum> states = statesUntilEnd(jobId);

    assertEquals(JobState.Enum.DONE, states.get(states.size() - 1), "states: " + states);
    assertTrue(states.contains(JobState.Enum.RUNNING), "states: " + states);
    try (Stream<Path> left = Files.list(temp)) {
      assertEquals(List.of(), left.toList(), "staging directory emptied");
    }
  }

  @Test
  void aUserCounterReachesGetJobMetrics() throws Exception {
    String jobId = submit("counted", TestPipelineProtos.impulseThen(new CountElements()));
    client.jobs.getStateStream(JobServiceClient.stateRequest(jobId)).forEachRemaining(e -> {});

    List<MetricsApi.MonitoringInfo> attempted =
        client
            .jobs
            .getJobMetrics(JobApi.GetJobMetricsRequest.newBuilder().setJobId(jobId).build())
            .getMetrics()
            .getAttemptedList();

    assertTrue(
        attempted.stream()
            .anyMatch(
                info ->
                    "elements".equals(info.getLabelsMap().get("NAME"))
                        && CountElements.class
                            .getName()
                            .equals(info.getLabelsMap().get("NAMESPACE"))),
        "the user counter among " + attempted);
  }

  @Test
  void aThrowingDoFnFailsTheJobWithItsErrorInTheMessageStream() throws Exception {
    String jobId = submit("throws", TestPipelineProtos.impulseThen(new Explode()));

    List<JobApi.JobMessagesResponse> events = messagesUntilEnd(jobId);

    assertEquals(
        JobState.Enum.FAILED,
        events.get(events.size() - 1).getStateResponse().getState(),
        "events: " + events);
    assertTrue(
        events.stream()
            .filter(JobApi.JobMessagesResponse::hasMessageResponse)
            .map(JobApi.JobMessagesResponse::getMessageResponse)
            .anyMatch(
                message ->
                    message.getImportance() == MessageImportance.JOB_MESSAGE_ERROR
                        && message.getMessageText().contains(Explode.MESSAGE)),
        "an error message with the DoFn's exception among " + events);
  }

  /**
   * Cancel stops a job that would otherwise never end: the state stream ends CANCELLED, and the
   * job's DoFn sees no element after that.
   */
  @Test
  void cancelStopsAnEndlessJob(@TempDir Path out) throws Exception {
    String jobId =
        submit("endless", TestPipelineProtos.endlessSequenceInto(new CountSequence(out)));
    Path seen = out.resolve(CountSequence.FILE);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(seen) || Files.size(seen) == 0) {
      assertTrue(System.nanoTime() < deadline, "no element processed within 60 s");
      Thread.sleep(50);
    }

    client.jobs.cancel(JobApi.CancelJobRequest.newBuilder().setJobId(jobId).build());
    List<JobState.Enum> states = statesUntilEnd(jobId);

    assertEquals(JobState.Enum.CANCELLED, states.get(states.size() - 1), "states: " + states);
    long afterCancel = Files.size(seen);
    Thread.sleep(500);
    assertEquals(afterCancel, Files.size(seen), "elements processed after the job was cancelled");
  }

  /**
   * Cancel answers at once (CANCELLING) while a bundle is in flight, and the job is CANCELLED soon
   * after, though the DoFn would block for two minutes: its bundle is abandoned.
   */
  @Test
  void cancelReturnsAtOnceWhileABundleIsInFlight() throws Exception {
    String jobId = submit("stuck", TestPipelineProtos.impulseThen(new BlockInBundle()));
    try {
      assertTrue(BlockInBundle.STARTED.await(60, TimeUnit.SECONDS), "the DoFn never started");

      long start = System.nanoTime();
      JobApi.CancelJobResponse response =
          client.jobs.cancel(JobApi.CancelJobRequest.newBuilder().setJobId(jobId).build());
      long cancelMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      List<JobState.Enum> states = statesUntilEnd(jobId);
      long endMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertTrue(cancelMillis < 3_000, "Cancel took " + cancelMillis + " ms");
      assertEquals(JobState.Enum.CANCELLING, response.getState());
      assertEquals(JobState.Enum.CANCELLED, states.get(states.size() - 1), "states: " + states);
      assertTrue(endMillis < 10_000, "CANCELLED " + endMillis + " ms after the cancel");
    } finally {
      BlockInBundle.RELEASE.countDown();
    }
  }

  /**
   * The TypeScript and Python SDKs send no runner option (see the TypeScript SDK's
   * PrepareJobRequest in src/test/typescript/proto-dumps): the job server runs their jobs on
   * ArconRunner all the same.
   */
  @Test
  void aClientThatNamesNoRunnerIsRunOnArcon() throws Exception {
    Struct typeScriptOptions =
        Struct.newBuilder()
            .putFields(
                "beam:option:job_name:v1",
                Value.newBuilder().setStringValue("no-runner-named").build())
            .build();
    String jobId =
        client.submit(
            "no-runner-named",
            TestPipelineProtos.impulseThen(new CountElements()),
            typeScriptOptions);

    List<JobState.Enum> states = statesUntilEnd(jobId);
    assertEquals(JobState.Enum.DONE, states.get(states.size() - 1), "states: " + states);
  }

  /** The executor refuses DOCKER environments; the refused Run leaves no job and no files. */
  @Test
  void aPipelineTheRunnerCannotRunIsRefusedAndLeavesNothingBehind() throws Exception {
    RunnerApi.Pipeline pipeline = TestPipelineProtos.trivial();
    RunnerApi.Pipeline.Builder docker = pipeline.toBuilder();
    for (String id : pipeline.getComponents().getEnvironmentsMap().keySet()) {
      docker
          .getComponentsBuilder()
          .putEnvironments(id, Environments.createDockerEnvironment("no/such-image:1"));
    }
    JobApi.PrepareJobResponse preparation =
        client.prepare("docker", docker.build(), clientOptions("docker"));
    client.stage(preparation);

    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.run(preparation));

    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getMessage());
    assertTrue(e.getStatus().getDescription().contains("DOCKER"), e.getMessage());
    assertEquals(
        0, client.jobs.getJobs(JobApi.GetJobsRequest.getDefaultInstance()).getJobInfoCount());
    assertFalse(Files.exists(temp.resolve(preparation.getStagingSessionToken())));
  }

  /**
   * TSS does not read portable pipelines' state: a job that asks for it is refused with a message
   * saying so, instead of running with the option silently ignored.
   */
  @Test
  void aJobThatAsksForTssIsRefusedWithTheReason() throws Exception {
    // Option names as clients send them (snake case; Beam's translation makes them camel case).
    for (String option : List.of("tss=on", "tss_export=Count*")) {
      String[] nameValue = option.split("=", 2);
      Struct options =
          clientOptions("tss").toBuilder()
              .putFields(
                  "beam:option:" + nameValue[0] + ":v1",
                  Value.newBuilder().setStringValue(nameValue[1]).build())
              .build();
      JobApi.PrepareJobResponse preparation =
          client.prepare("tss", TestPipelineProtos.impulseThen(new CountElements()), options);
      client.stage(preparation);

      StatusRuntimeException e =
          assertThrows(StatusRuntimeException.class, () -> client.run(preparation));

      assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode(), e.getMessage());
      String message = e.getStatus().getDescription();
      assertTrue(message.contains("--" + option.replace("tss_export", "tssExport")), message);
      assertTrue(message.contains("--runner=ArconRunner"), message);
    }
    // Saying it is off is fine.
    Struct off =
        clientOptions("tss-off").toBuilder()
            .putFields("beam:option:tss:v1", Value.newBuilder().setStringValue("off").build())
            .build();
    String jobId =
        client.submit("tss-off", TestPipelineProtos.impulseThen(new CountElements()), off);
    List<JobState.Enum> states = statesUntilEnd(jobId);
    assertEquals(JobState.Enum.DONE, states.get(states.size() - 1), "states: " + states);
  }

  /**
   * An option value that does not parse as the option's type (a TypeScript client's {@code
   * {checkpointingInterval: "abc"}}) is refused as the client's error, naming option and value.
   */
  @Test
  void aBadOptionValueIsRefusedNamingTheOptionAndValue() throws Exception {
    for (String key :
        List.of("beam:option:checkpointing_interval:v1", "beam:option:parallelism:v1")) {
      Struct options =
          clientOptions("bad-option").toBuilder()
              .putFields(key, Value.newBuilder().setStringValue("abc").build())
              .build();
      JobApi.PrepareJobResponse preparation =
          client.prepare("bad-option", TestPipelineProtos.trivial(), options);
      client.stage(preparation);

      StatusRuntimeException e =
          assertThrows(StatusRuntimeException.class, () -> client.run(preparation));

      assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getMessage());
      String message = e.getStatus().getDescription();
      assertTrue(
          message.contains(
              "--" + (key.contains("parallelism") ? "parallelism" : "checkpointingInterval")),
          message);
      assertTrue(message.contains("\"abc\""), message);
    }
  }

  /**
   * A client's --webUiPort starts no web UI server of its own in the job server (one stayed bound
   * per port until the server stopped): the job goes on the server's shared UI, and the client is
   * told. --webUiToken (or --webUiAddress) is refused rather than shown on the shared, open UI.
   */
  @Test
  void aClientsWebUiPortLeavesNoServerBehind() throws Exception {
    int port = 18350;
    Struct options =
        clientOptions("own-ui").toBuilder()
            .putFields(
                "beam:option:web_ui_port:v1", Value.newBuilder().setNumberValue(port).build())
            .build();
    String jobId =
        client.submit("own-ui", TestPipelineProtos.impulseThen(new CountElements()), options);

    List<JobApi.JobMessagesResponse> events = messagesUntilEnd(jobId);

    assertEquals(
        JobState.Enum.DONE,
        events.get(events.size() - 1).getStateResponse().getState(),
        "events: " + events);
    assertTrue(
        events.stream()
            .filter(JobApi.JobMessagesResponse::hasMessageResponse)
            .anyMatch(
                e ->
                    e.getMessageResponse().getImportance() == MessageImportance.JOB_MESSAGE_WARNING
                        && e.getMessageResponse()
                            .getMessageText()
                            .contains("--webUiPort=" + port + " is ignored")),
        "a warning about --webUiPort among " + events);
    try (java.net.ServerSocket free =
        new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
      assertTrue(free.isBound());
    }

    Struct token =
        clientOptions("own-ui-token").toBuilder()
            .putFields(
                "beam:option:web_ui_token:v1", Value.newBuilder().setStringValue("t").build())
            .build();
    JobApi.PrepareJobResponse preparation =
        client.prepare("own-ui-token", TestPipelineProtos.trivial(), token);
    client.stage(preparation);
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client.run(preparation));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getMessage());
    assertTrue(e.getStatus().getDescription().contains("--webUiToken"), e.getMessage());
  }

  /** The job's message stream (messages and states), read until the job ends. */
  private List<JobApi.JobMessagesResponse> messagesUntilEnd(String jobId) {
    List<JobApi.JobMessagesResponse> events = new ArrayList<>();
    client
        .jobs
        .getMessageStream(JobApi.JobMessagesRequest.newBuilder().setJobId(jobId).build())
        .forEachRemaining(events::add);
    return events;
  }

  /** The job's state stream, read until the job ends. */
  private List<JobState.Enum> statesUntilEnd(String jobId) {
    List<JobState.Enum> states = new ArrayList<>();
    client
        .jobs
        .getStateStream(JobServiceClient.stateRequest(jobId))
        .forEachRemaining(event -> states.add(event.getState()));
    return states;
  }

  private String submit(String name, RunnerApi.Pipeline pipeline) throws Exception {
    return client.submit(name, pipeline, clientOptions(name));
  }

  /**
   * Options as a Java client sends them, naming ArconRunner as the runner ({@link
   * #aClientThatNamesNoRunnerIsRunOnArcon} covers clients that name none).
   */
  private static Struct clientOptions(String jobName) {
    PortablePipelineOptions options =
        PipelineOptionsFactory.create().as(PortablePipelineOptions.class);
    options.setJobName(jobName);
    options.setDefaultEnvironmentType(Environments.ENVIRONMENT_EMBEDDED);
    options.setRunner(io.arcon.runner.ArconRunner.class);
    return PipelineOptionsTranslation.toProto(options);
  }

  static class CountElements extends DoFn<byte[], Void> {
    private final Counter elements = Metrics.counter(CountElements.class, "elements");

    @ProcessElement
    public void process(@Element byte[] element) {
      elements.inc();
    }
  }

  /** Appends a byte per element to a file: a record the test can read after the job stopped. */
  static class CountSequence extends DoFn<Long, Void> {
    static final String FILE = "sequence-seen";
    private final String dir;

    CountSequence(Path dir) {
      this.dir = dir.toString();
    }

    @ProcessElement
    public void process(@Element Long element) throws java.io.IOException {
      Files.write(
          Path.of(dir, FILE),
          new byte[] {1},
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    }
  }

  /** Blocks its bundle until the test lets it go (at most two minutes). */
  static class BlockInBundle extends DoFn<byte[], Void> {
    // Static: the EMBEDDED harness runs the DoFn in this JVM, deserialized from the pipeline.
    static final java.util.concurrent.CountDownLatch STARTED =
        new java.util.concurrent.CountDownLatch(1);
    static final java.util.concurrent.CountDownLatch RELEASE =
        new java.util.concurrent.CountDownLatch(1);

    @ProcessElement
    public void process(@Element byte[] element) throws InterruptedException {
      STARTED.countDown();
      RELEASE.await(2, TimeUnit.MINUTES);
    }
  }

  static class Explode extends DoFn<byte[], Void> {
    static final String MESSAGE = "kaboom from a user DoFn 4711";

    @ProcessElement
    public void process(@Element byte[] element) {
      throw new IllegalStateException(MESSAGE);
    }
  }
}
