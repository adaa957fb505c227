package io.arcon.runner.tss;

import static io.arcon.runner.tss.TssTestSupport.awaitCommitted;
import static io.arcon.runner.tss.TssTestSupport.awaitRegistered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.server.EmbeddedControlPlane;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first app started the embedded control plane and stopped: an app that shares its {@code
 * --tssHome} starts one there itself, with the same catalog, and TSS goes on. An app with another
 * home waits, as it does for a standalone control plane ({@link TssControlPlaneRestartTest}).
 */
class TssEmbeddedTakeOverTest {
  private static final DateTimeFormatter AT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  /** Counts per key in a watermark-cut ValueState. */
  static final class CountPerKey extends DoFn<KV<Long, Long>, Void> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> count = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(@StateId("count") ValueState<Long> count) {
      Long n = count.read();
      count.write(n == null ? 1 : n + 1);
    }
  }

  @Test
  void anAppWithTheSameHomeTakesOverAndTheTssGoesOn(@TempDir Path home) throws Exception {
    int port = freePort();
    EmbeddedControlPlane first =
        EmbeddedControlPlane.startIfNoneListening("127.0.0.1", port, home, null).orElseThrow();
    PipelineResult result = run("takeover_app", port, home);
    try {
      Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(4);
      try (TssClient tss = TssClient.connect("127.0.0.1", port, null)) {
        awaitRegistered(tss, "takeover_app");
        tss.execute(
            "CREATE TSS counts AS EXTRACT takeover_app.count AT '"
                + AT.format(at)
                + "' FOR EACH 2 SECONDS UNTIL '"
                + AT.format(at.plusSeconds(20))
                + "';");
      }

      first.close(); // the first app's JVM is gone

      try (TssClient tss = TssClient.connect("127.0.0.1", port, null)) {
        awaitRegistered(tss, "takeover_app");
        // Same home: the TSS created on the first control plane is there and goes on.
        awaitCommitted(tss, "counts", at.plusSeconds(2).toEpochMilli());
        assertEquals(1, tss.showTss().rows().size());
      }
      assertEquals(PipelineResult.State.RUNNING, result.getState());
    } finally {
      result.cancel();
      first.close();
    }
  }

  @Test
  void anAppWithAnotherHomeWaits(@TempDir Path temp) throws Exception {
    int port = freePort();
    EmbeddedControlPlane first =
        EmbeddedControlPlane.startIfNoneListening("127.0.0.1", port, temp.resolve("first"), null)
            .orElseThrow();
    PipelineResult result = run("waiting_app", port, temp.resolve("own"));
    try {
      try (TssClient tss = TssClient.connect("127.0.0.1", port, null)) {
        awaitRegistered(tss, "waiting_app");
      }
      first.close();
      // Reconnects come every 100 ms to 5 s: 3 s see several.
      Thread.sleep(3_000);
      assertFalse(listens(port), "an app took over a control plane of another home");
      assertEquals(PipelineResult.State.RUNNING, result.getState());
    } finally {
      result.cancel();
    }
  }

  private static PipelineResult run(String app, int port, Path home) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setJobName(app);
    options.setParallelism(2);
    options.setWebUi("off");
    options.setTss("on");
    options.setTssEndpoint("127.0.0.1:" + port);
    options.setTssHome(home.toString());
    options.setStreaming(true);
    Pipeline p = Pipeline.create(options);
    p.apply(
            GenerateSequence.from(0)
                .withRate(200, Duration.standardSeconds(1))
                .withTimestampFn(i -> org.joda.time.Instant.now()))
        .apply(
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                .via(i -> KV.of(i % 10, i)))
        .apply("Count", ParDo.of(new CountPerKey()));
    PipelineResult result = p.run();
    assertTrue(result.getState() == PipelineResult.State.RUNNING, result.getState().toString());
    return result;
  }

  private static boolean listens(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
