package io.arcon.portability.typescript;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.portability.jobservice.ArconJobServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobServiceGrpc;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.runners.core.metrics.MonitoringInfoEncodings;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pipelines written with the Beam TypeScript SDK (apache-beam from npm, {@code
 * src/test/typescript}) produce what Java computes from the same input files: a word count and a
 * keyed sum in 10 s event-time windows.
 *
 * <p>On the SDK's own DirectRunner, which checks the pipelines and this test's expectations without
 * a job server; and submitted to ArconRunner's job server with environment LOOPBACK, where the SDK
 * serves its workers from the node process and ArconRunner runs the rest.
 *
 * <p>Skipped when node or npm is missing (run {@code bin/setup-typescript-tests}), unless {@code
 * ARCON_TYPESCRIPT_TESTS=required} (CI), which fails then. Each script's output and log are in
 * {@code target/typescript/}.
 */
class TypeScriptSdkTest {
  private static final Path PROJECT_DIR = Path.of("src/test/typescript");
  private static final Path WORDS = PROJECT_DIR.resolve("fixtures/words.txt");
  private static final Path EVENTS = PROJECT_DIR.resolve("fixtures/events.csv");
  private static final Path OUT_DIR = Path.of("target/typescript").toAbsolutePath();
  private static final int WINDOW_SECONDS = 10;

  private static final Duration DIRECT_TIMEOUT = Duration.ofMinutes(3);
  // The SDK polls the job's state with a growing interval of up to 10 s.
  private static final Duration JOB_SERVER_TIMEOUT = Duration.ofMinutes(5);

  private static NodeProject project;

  @BeforeAll
  static void installSdk() throws Exception {
    project = NodeProject.prepare(PROJECT_DIR, OUT_DIR);
  }

  @Test
  void wordCountOnDirectRunner() throws Exception {
    Path output = OUT_DIR.resolve("wordcount-direct.tsv");
    project.runScript(
        "wordcount.js",
        List.of("--runner=direct", "--input=" + WORDS.toAbsolutePath(), "--output=" + output),
        "wordcount-direct",
        DIRECT_TIMEOUT);
    assertEquals(WordCounts.expectedFrom(WORDS), WordCounts.read(output));
  }

  @Test
  void windowedSumOnDirectRunner() throws Exception {
    Path output = OUT_DIR.resolve("windowed_sum-direct.tsv");
    project.runScript(
        "windowed_sum.js",
        windowedSumArgs("--runner=direct", output),
        "windowed_sum-direct",
        DIRECT_TIMEOUT);
    assertEquals(WindowedSums.expectedFrom(EVENTS, WINDOW_SECONDS), WindowedSums.read(output));
  }

  /**
   * The word count's result, and its user counter "words" in GetJobMetrics (the SDK labels its
   * counters TRANSFORM, not PTRANSFORM, with an empty namespace).
   */
  @Test
  void wordCountOnArconJobServer() throws Exception {
    Path output = OUT_DIR.resolve("wordcount-arcon.tsv");
    long words;
    try (ArconJobServer server = ArconJobServer.start()) {
      project.runScript(
          "wordcount.js",
          List.of(
              "--job_endpoint=" + server.jobEndpoint(),
              "--input=" + WORDS.toAbsolutePath(),
              "--output=" + output),
          "wordcount-arcon",
          JOB_SERVER_TIMEOUT);
      words = userCounter(server, "words");
    }
    assertEquals(WordCounts.expectedFrom(WORDS), WordCounts.read(output));
    assertEquals(
        WordCounts.expectedFrom(WORDS).values().stream().mapToLong(Long::longValue).sum(), words);
  }

  /** The sum of user counter {@code name} over the server's (only) job, as GetJobMetrics has it. */
  private static long userCounter(ArconJobServer server, String name) throws Exception {
    ManagedChannel channel =
        NettyChannelBuilder.forTarget(server.jobEndpoint()).usePlaintext().build();
    try {
      JobServiceGrpc.JobServiceBlockingStub jobs = JobServiceGrpc.newBlockingStub(channel);
      List<JobApi.JobInfo> infos =
          jobs.getJobs(JobApi.GetJobsRequest.getDefaultInstance()).getJobInfoList();
      assertEquals(1, infos.size(), infos.toString());
      List<MetricsApi.MonitoringInfo> attempted =
          jobs.getJobMetrics(
                  JobApi.GetJobMetricsRequest.newBuilder()
                      .setJobId(infos.get(0).getJobId())
                      .build())
              .getMetrics()
              .getAttemptedList();
      long sum = 0;
      boolean found = false;
      for (MetricsApi.MonitoringInfo info : attempted) {
        if (name.equals(info.getLabelsMap().get("NAME"))
            && info.getUrn().equals("beam:metric:user:sum_int64:v1")) {
          sum += MonitoringInfoEncodings.decodeInt64Counter(info.getPayload());
          found = true;
        }
      }
      assertTrue(found, "user counter '" + name + "' among " + attempted);
      return sum;
    } finally {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void windowedSumOnArconJobServer() throws Exception {
    Path output = OUT_DIR.resolve("windowed_sum-arcon.tsv");
    try (ArconJobServer server = ArconJobServer.start()) {
      project.runScript(
          "windowed_sum.js",
          windowedSumArgs("--job_endpoint=" + server.jobEndpoint(), output),
          "windowed_sum-arcon",
          JOB_SERVER_TIMEOUT);
    }
    assertEquals(WindowedSums.expectedFrom(EVENTS, WINDOW_SECONDS), WindowedSums.read(output));
  }

  private static List<String> windowedSumArgs(String runnerArg, Path output) {
    List<String> args = new ArrayList<>();
    args.add(runnerArg);
    args.add("--input=" + EVENTS.toAbsolutePath());
    args.add("--window_seconds=" + WINDOW_SECONDS);
    args.add("--output=" + output);
    return args;
  }
}
