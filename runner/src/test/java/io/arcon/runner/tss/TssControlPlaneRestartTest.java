package io.arcon.runner.tss;

import static io.arcon.runner.tss.TssTestSupport.awaitCommitted;
import static io.arcon.runner.tss.TssTestSupport.awaitRegistered;
import static io.arcon.runner.tss.TssTestSupport.awaitWatermark;
import static io.arcon.runner.tss.TssTestSupport.read;
import static io.arcon.runner.tss.TssTestSupport.versionDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.server.ControlPlaneServer;
import io.arcon.tss.server.ServerConfig;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.ParDo;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Killing the control plane while a pipeline runs: the pipeline carries on (its watermark passes a
 * version time while nothing listens), no committed version is lost or changed, and when the
 * control plane is back on the same home the agent re-registers and the version that became due
 * meanwhile is extracted from the version chain, exactly.
 */
class TssControlPlaneRestartTest {
  private static final long BASE = Instant.parse("2026-12-02T14:00:00Z").toEpochMilli();
  private static final long[] VERSIONS = {BASE + 10_000, BASE + 20_000, BASE + 30_000};

  @Test
  void aRestartedControlPlaneLosesNoVersionAndThePipelineCarriesOn(@TempDir Path home)
      throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ServerConfig config = ServerConfig.defaults(home).withPort(port);
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch afterFirst = new CountDownLatch(1);
    CountDownLatch afterSecond = new CountDownLatch(1);
    ClickScript script =
        new ClickScript(
            7,
            BASE,
            400,
            VERSIONS,
            new CountDownLatch[] {start, afterFirst, afterSecond},
            new long[] {VERSIONS[0], VERSIONS[1]});

    ControlPlaneServer server = ControlPlaneServer.start(config);
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setJobName("restart_app");
    options.setParallelism(2);
    options.setTss("on");
    options.setTssEndpoint("127.0.0.1:" + port);
    options.setTssHome(home.resolve("unused").toString());
    Pipeline p = Pipeline.create(options);
    p.apply(Read.from(new ScriptedClicks("restart_app", script.steps)))
        .apply("Total", ParDo.of(new TssOracleTest.SumPerKey()));
    PipelineResult result = p.run();
    try {
      byte[] firstVersionBytes;
      try (TssClient tss = TssClient.connect("127.0.0.1", port, null)) {
        awaitRegistered(tss, "restart_app");
        tss.execute(
            "CREATE TSS restarts AS EXTRACT restart_app.total AT '2026-12-02 14:00:10' TIME ZONE"
                + " 'UTC' FOR EACH 10 SECONDS UNTIL '2026-12-02 14:00:30';");
        awaitWatermark(tss, "restart_app", script.preludeWatermark);
        start.countDown();
        awaitCommitted(tss, "restarts", VERSIONS[0]);
        assertEquals(
            script.exactSums(VERSIONS[0]),
            read(tss, "restarts", VERSIONS[0], "restart_app", "total"));
        firstVersionBytes = partFile(tss, VERSIONS[0]);
      }

      server.close();
      afterFirst.countDown();
      // With nothing listening, the pipeline still runs on past the second version time.
      assertTrue(script.reached(2).await(60, TimeUnit.SECONDS), "the pipeline stalled");
      assertEquals(PipelineResult.State.RUNNING, result.getState());

      server = ControlPlaneServer.start(config);
      try (TssClient tss = TssClient.connect("127.0.0.1", port, null)) {
        awaitCommitted(tss, "restarts", VERSIONS[1]);
        afterSecond.countDown();
        assertEquals(
            PipelineResult.State.DONE, result.waitUntilFinish(Duration.standardMinutes(3)));
        for (long version : VERSIONS) {
          assertEquals(
              script.exactSums(version),
              read(tss, "restarts", version, "restart_app", "total"),
              "version " + Instant.ofEpochMilli(version));
        }
        assertArrayEquals(
            firstVersionBytes,
            partFile(tss, VERSIONS[0]),
            "a committed version's file is never rewritten");
      }
    } finally {
      start.countDown();
      afterFirst.countDown();
      afterSecond.countDown();
      if (result.getState() == PipelineResult.State.RUNNING) {
        result.cancel();
      }
      server.close();
    }
  }

  private static byte[] partFile(TssClient tss, long version) throws Exception {
    Path dir = versionDir(tss, "restarts", version).resolve("restart_app").resolve("total");
    try (var files = Files.list(dir)) {
      return Files.readAllBytes(
          files.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst().get());
    }
  }
}
