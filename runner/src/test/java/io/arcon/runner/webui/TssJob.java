package io.arcon.runner.webui;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.server.ControlPlaneServer;
import io.arcon.tss.server.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * A running job registered as a TSS app with a control plane the test started, and a TSS whose only
 * version (in 2099) waits on the app. The job's stateful DoFn holds its first element until the job
 * is closed, so the job stays running while the test looks.
 */
final class TssJob implements AutoCloseable {
  /** Released when the test is done; static because every DoFn instance is a deserialized copy. */
  private static volatile CountDownLatch release = new CountDownLatch(0);

  final String app;
  final String tss;
  final PipelineResult result;
  final URI page;
  private final ControlPlaneServer server;

  static final class HoldAndSum extends DoFn<KV<Long, Long>, Void> {
    @StateId("total")
    private final StateSpec<ValueState<Long>> total = StateSpecs.value();

    @ProcessElement
    public void process(@Element KV<Long, Long> e, @StateId("total") ValueState<Long> total)
        throws InterruptedException {
      release.await(5, TimeUnit.MINUTES);
      Long sum = total.read();
      total.write((sum == null ? 0 : sum) + e.getValue());
    }
  }

  private TssJob(String app, String tss, PipelineResult result, ControlPlaneServer server) {
    this.app = app;
    this.tss = tss;
    this.result = result;
    this.server = server;
    this.page = WebUiTestSupport.pageOf(result);
  }

  /** Starts a control plane in {@code home}, the job {@code app} and the TSS {@code app_waits}. */
  static TssJob start(String app, Path home) throws Exception {
    release = new CountDownLatch(1);
    ControlPlaneServer server = ControlPlaneServer.start(ServerConfig.defaults(home).withPort(0));
    PipelineResult result = null;
    try {
      ArconPipelineOptions options = WebUiTestSupport.options(app, ArconRunner.class);
      options.setTss("on");
      options.setTssEndpoint("127.0.0.1:" + server.port());
      options.setTssHome(home.resolve("unused").toString());
      Pipeline p = Pipeline.create(options);
      p.apply("Numbers", GenerateSequence.from(0).to(100))
          .apply("Key", WithKeys.of((Long x) -> x % 5).withKeyType(TypeDescriptors.longs()))
          .apply("Total", ParDo.of(new HoldAndSum()));
      result = p.run();
      String tss = app + "_waits";
      try (TssClient client = TssClient.connect("127.0.0.1", server.port(), null)) {
        awaitConnected(client, app);
        client.execute(
            "CREATE TSS "
                + tss
                + " AS EXTRACT "
                + app
                + ".total AT '2099-01-01 00:00:00' TIME ZONE 'UTC';");
      }
      return new TssJob(app, tss, result, server);
    } catch (Exception | Error e) {
      release.countDown();
      if (result != null) {
        result.cancel();
      }
      server.close();
      throw e;
    }
  }

  private static void awaitConnected(TssClient client, String app) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      for (AppSummary s : client.showApps()) {
        if (s.getName().equals(app) && s.getConnected()) {
          return;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("app " + app + " did not register within 60 s");
  }

  String endpoint() {
    return "127.0.0.1:" + server.port();
  }

  /** Cancels the job (its TSS version would hold a finishing job) and stops the control plane. */
  @Override
  public void close() throws IOException {
    try {
      result.cancel();
      release.countDown();
      result.waitUntilFinish(Duration.standardMinutes(1));
    } finally {
      server.close();
    }
  }
}
