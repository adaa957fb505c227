package io.arcon.portability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.portability.jobservice.ArconJobServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobServiceGrpc;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class JobServerMainTest {

  private static final Pattern READY =
      Pattern.compile(
          "Arcon job server listening on 127\\.0\\.0\\.1:(\\d+) \\(artifacts on 127\\.0\\.0\\.1:(\\d+)\\)");

  @TempDir Path temp;

  @Test
  void printsTheActualPortsWhenReadyAndServesThem() throws Exception {
    JobServerMain main = new JobServerMain();
    StringWriter out = new StringWriter();
    CommandLine command = new CommandLine(main).setOut(new PrintWriter(out, true));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                command.execute(
                    "--job-port", "0", "--artifact-port", "0", "--staging-dir", temp.toString()));
    ArconJobServer server = main.started.get(60, TimeUnit.SECONDS);

    Matcher ready = READY.matcher(out.toString().strip());
    assertTrue(ready.matches(), out.toString());
    assertEquals(server.jobPort(), Integer.parseInt(ready.group(1)));
    assertEquals(server.artifactPort(), Integer.parseInt(ready.group(2)));
    assertTrue(server.jobPort() > 0 && server.artifactPort() > 0);
    assertEquals(temp, server.stagingDir());
    assertTrue(describeOptions(server.jobEndpoint()) > 0);

    server.close();
    assertEquals(0, exit.get(60, TimeUnit.SECONDS));
  }

  @Test
  void refusesANonLoopbackAddressWithoutAToken() {
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new JobServerMain())
            .setErr(new PrintWriter(err, true))
            .execute("--bind-address", "0.0.0.0", "--job-port", "0", "--artifact-port", "0");
    assertEquals(2, exit);
    assertTrue(err.toString().contains("non-loopback address 0.0.0.0"), err.toString());
    assertTrue(err.toString().contains("--token"), err.toString());
  }

  @Test
  void aBadPortIsAUsageError() {
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new JobServerMain())
            .setErr(new PrintWriter(err, true))
            .execute("--job-port", "70000");
    assertEquals(2, exit);
    assertTrue(err.toString().contains("out of range"), err.toString());
  }

  /** A real process: SIGTERM stops it and removes what it staged. */
  @Test
  void sigtermStopsTheServerAndDeletesStagedArtifacts() throws Exception {
    Path staging = temp.resolve("staging");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                JobServerMain.class.getName(),
                "--job-port=0",
                "--artifact-port=0",
                "--staging-dir=" + staging)
            .redirectError(temp.resolve("stderr.txt").toFile())
            .start();
    try {
      BufferedReader stdout =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = stdout.readLine();
      Matcher ready = READY.matcher(String.valueOf(line));
      assertTrue(
          ready.matches(), line + "\nstderr:\n" + Files.readString(temp.resolve("stderr.txt")));
      String jobEndpoint = "127.0.0.1:" + ready.group(1);
      String token = prepare(jobEndpoint).getStagingSessionToken();
      assertTrue(Files.isDirectory(staging.resolve(token)));

      process.destroy(); // SIGTERM

      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "stopped after SIGTERM");
      assertFalse(Files.exists(staging.resolve(token)), "staged artifacts deleted");
    } finally {
      process.destroyForcibly();
    }
  }

  private static int describeOptions(String endpoint) throws InterruptedException {
    ManagedChannel channel = NettyChannelBuilder.forTarget(endpoint).usePlaintext().build();
    try {
      return JobServiceGrpc.newBlockingStub(channel)
          .describePipelineOptions(JobApi.DescribePipelineOptionsRequest.getDefaultInstance())
          .getOptionsCount();
    } finally {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private static JobApi.PrepareJobResponse prepare(String endpoint) throws InterruptedException {
    ManagedChannel channel = NettyChannelBuilder.forTarget(endpoint).usePlaintext().build();
    try {
      return JobServiceGrpc.newBlockingStub(channel)
          .prepare(
              JobApi.PrepareJobRequest.newBuilder()
                  .setJobName("left-behind")
                  .setPipeline(RunnerApi.Pipeline.getDefaultInstance())
                  .setPipelineOptions(Struct.getDefaultInstance())
                  .build());
    } finally {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }
}
