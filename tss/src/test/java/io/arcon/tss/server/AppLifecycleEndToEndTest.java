package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.StateSource;
import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.proto.AppSummary;
import io.arcon.tss.wire.ProtoTime;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app's life as a pipeline lives it, through {@link TssAgent} against a real control plane: its
 * history horizon, and finishing a bounded run — drained, not registered, timed out, and a control
 * plane that restarts while the app waits.
 */
class AppLifecycleEndToEndTest {
  private static final Instant T = Instant.parse("2026-12-02T13:00:00Z");

  @TempDir Path home;
  private final int port = TestSupport.freePort();
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      try {
        toClose.get(i).close();
      } catch (Exception e) {
        // Best effort; the outcome is decided.
      }
    }
  }

  private <C extends AutoCloseable> C closeLater(C c) {
    toClose.add(c);
    return c;
  }

  private ControlPlaneServer startServer() {
    return ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
  }

  private TssAgent agent(String app, StateSource source) {
    return closeLater(
        TssAgent.builder(app, source)
            .endpoint("127.0.0.1", port)
            .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
            .start());
  }

  private static Instant minutes(long m) {
    return T.plus(Duration.ofMinutes(m));
  }

  /** Clicks per user at event times around the versions; null clears a user. */
  private static SyntheticApp clicks() {
    return new SyntheticApp()
        .withCounter("clicks")
        .update("clicks", "alice", minutes(-2), 1L)
        .update("clicks", "bob", minutes(3), 1L)
        .update("clicks", "alice", minutes(5), 2L)
        .update("clicks", "carol", minutes(9), 4L)
        .update("clicks", "bob", minutes(11), null);
  }

  /** The oracle: how many users have a count at version T, from the updates above. */
  private static long usersAt(Instant version) {
    Map<String, Long> state = new HashMap<>();
    Object[][] updates = {
      {"alice", minutes(-2), 1L},
      {"bob", minutes(3), 1L},
      {"alice", minutes(5), 2L},
      {"carol", minutes(9), 4L},
      {"bob", minutes(11), null}
    };
    for (Object[] u : updates) {
      if (((Instant) u[1]).isBefore(version)) {
        if (u[2] == null) {
          state.remove((String) u[0]);
        } else {
          state.put((String) u[0], (Long) u[2]);
        }
      }
    }
    return state.size();
  }

  private static long parquetRows(Path file) throws Exception {
    long rows = 0;
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .build()) {
      while (reader.read() != null) {
        rows++;
      }
    }
    return rows;
  }

  @Test
  void theHistoryHorizonIsShownReSentAfterARestartAndRefusesOlderVersions() throws Exception {
    ControlPlaneServer server = startServer();
    TssAgent agent = agent("clicks", clicks());
    assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
    Instant historyFrom = minutes(-30);
    agent.reportWatermark(minutes(20), historyFrom);
    try (TssClient client = closeLater(TssClient.connect("127.0.0.1", port, null))) {
      TestSupport.await("the horizon to arrive", () -> client.showApps().get(0).hasHistoryFrom());
      assertEquals(historyFrom, ProtoTime.toInstant(client.showApps().get(0).getHistoryFrom()));

      TssClientException refused =
          assertThrows(
              TssClientException.class,
              () ->
                  client.execute(
                      "CREATE TSS old AS EXTRACT clicks.clicks AT '2026-12-02 12:00:00';"));
      assertEquals(Status.Code.OUT_OF_RANGE, refused.code());
      assertEquals(
          "app clicks keeps state history from "
              + historyFrom
              + "; AT "
              + minutes(-60)
              + " is older. Use AT >= "
              + historyFrom
              + " or run the app with a longer --stateHistory",
          refused.getMessage());

      server.close();
      server = closeLater(startServer());
      TestSupport.await(
          "the agent to re-register with its horizon",
          () -> {
            List<AppSummary> apps = client.showApps();
            return apps.get(0).getConnected() && apps.get(0).hasHistoryFrom();
          });
      assertEquals(historyFrom, ProtoTime.toInstant(client.showApps().get(0).getHistoryFrom()));
      assertTrue(
          client
              .execute("CREATE TSS recent AS EXTRACT clicks.clicks AT '2026-12-02 12:30:00';")
              .message()
              .startsWith("TSS recent created"));
    }
  }

  @Test
  void finishingWithoutAControlPlaneReturnsFalseAtOnce() {
    TssAgent agent = agent("lonely", clicks());
    long started = System.nanoTime();
    assertFalse(agent.finish(minutes(12), Duration.ofMinutes(5)));
    assertTrue(
        Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(5)) < 0,
        "finish waited for a control plane that is not there");
  }

  @Test
  void finishingSealsEveryDueVersionWithTheFinalStateAndTheTssStops() throws Exception {
    closeLater(startServer());
    TssAgent agent = agent("clicks", clicks());
    assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
    try (TssClient client = closeLater(TssClient.connect("127.0.0.1", port, null))) {
      client.execute(
          "CREATE TSS every5 AS EXTRACT clicks.clicks AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
      agent.reportWatermark(minutes(2));
      // The last event is at 13:11, so the input ends at 13:11 plus a millisecond.
      Instant end = minutes(11).plusMillis(1);
      assertTrue(agent.finish(end, TestSupport.PATIENCE));

      List<Instant> due = List.of(T, minutes(5), minutes(10), minutes(15));
      TestSupport.await(
          "the due versions to commit",
          () ->
              client.describeTss("every5").rows().stream()
                  .allMatch(r -> r.get(1).equals("committed")),
          () -> client.describeTss("every5").rows().toString());
      List<Instant> committed =
          client.describeTss("every5").rows().stream().map(r -> Instant.parse(r.get(0))).toList();
      assertEquals(due, committed);
      for (Instant version : due) {
        Path file =
            home.resolve("lake/every5/version=" + version + "/clicks/clicks/part-0.parquet");
        assertEquals(usersAt(version), parquetRows(file), "rows at " + version);
      }
      assertEquals(end, ProtoTime.toInstant(client.showApps().get(0).getFinishedAt()));
    }
  }

  @Test
  void dropAppForgetsAStoppedAppOverTheWireAndRefusesARunningOne() throws Exception {
    closeLater(startServer());
    TssAgent running = agent("running", clicks());
    TssAgent stopped = agent("stopped", clicks());
    assertTrue(running.awaitRegistered(TestSupport.PATIENCE));
    assertTrue(stopped.awaitRegistered(TestSupport.PATIENCE));
    try (TssClient client = closeLater(TssClient.connect("127.0.0.1", port, null))) {
      TssClientException refused =
          assertThrows(TssClientException.class, () -> client.execute("DROP APP running;"));
      assertEquals(Status.Code.FAILED_PRECONDITION, refused.code());
      assertTrue(refused.getMessage().contains("app running is running"), refused.getMessage());

      stopped.close();
      TestSupport.await(
          "the stopped app to disconnect",
          () ->
              client.showApps().stream()
                  .anyMatch(a -> a.getName().equals("stopped") && !a.getConnected()));
      assertTrue(client.dropApp("stopped").message().startsWith("app stopped dropped"));

      assertEquals(
          List.of("running"), client.showApps().stream().map(AppSummary::getName).toList());
      assertFalse(Files.exists(home.resolve("catalog/apps/stopped.json")));
    }
  }

  /** A source whose extraction of one version waits until the test lets it go. */
  private static final class GatedSource implements StateSource {
    private final SyntheticApp app = clicks();
    private final Instant gatedVersion;
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    GatedSource(Instant gatedVersion) {
      this.gatedVersion = gatedVersion;
    }

    @Override
    public List<StateDescriptor> states() {
      return app.states();
    }

    @Override
    public Iterable<StateRow> rows(String state, Instant version, Object keyFilter)
        throws Exception {
      if (version.equals(gatedVersion)) {
        entered.countDown();
        if (!release.await(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
          throw new IllegalStateException("never released");
        }
      }
      return app.rows(state, version, keyFilter);
    }
  }

  @Test
  void aControlPlaneRestartWhileFinishingIsRidOutAndTheAppStillDrains() throws Exception {
    ControlPlaneServer first = startServer();
    GatedSource source = new GatedSource(minutes(5));
    TssAgent agent = agent("clicks", source);
    assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
    try (TssClient client = closeLater(TssClient.connect("127.0.0.1", port, null))) {
      client.execute(
          "CREATE TSS every5 AS EXTRACT clicks.clicks AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES;");
      CompletableFuture<Boolean> finished =
          CompletableFuture.supplyAsync(() -> agent.finish(minutes(7), TestSupport.PATIENCE));
      assertTrue(source.entered.await(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS));
      first.close();
      closeLater(startServer());
      TestSupport.await("the agent to register again", agent::isRegistered);
      source.release.countDown();

      assertTrue(finished.get(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS));
      TestSupport.await(
          "the due versions to commit",
          () ->
              client.describeTss("every5").rows().stream()
                  .allMatch(r -> r.get(1).equals("committed")),
          () -> client.describeTss("every5").rows().toString());
      assertEquals(
          List.of(T, minutes(5), minutes(10)),
          client.describeTss("every5").rows().stream().map(r -> Instant.parse(r.get(0))).toList());
      assertTrue(Files.exists(home.resolve("lake/every5/version=" + minutes(10) + "/_COMMITTED")));
    }
  }

  @Test
  void finishingGivesUpAfterItsTimeout() throws Exception {
    closeLater(startServer());
    GatedSource source = new GatedSource(T);
    TssAgent agent = agent("clicks", source);
    assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
    try (TssClient client = closeLater(TssClient.connect("127.0.0.1", port, null))) {
      client.execute("CREATE TSS once AS EXTRACT clicks.clicks AT '2026-12-02 13:00:00';");
      Duration timeout = Duration.ofMillis(500);
      long started = System.nanoTime();
      assertFalse(agent.finish(minutes(1), timeout));
      Duration waited = Duration.ofNanos(System.nanoTime() - started);
      assertTrue(waited.compareTo(timeout) >= 0, "gave up after " + waited);
      assertTrue(source.entered.getCount() == 0, "the version was assigned");
      source.release.countDown();
    }
  }

  @Test
  void closingTheAgentWhileItFinishesEndsTheWait() throws Exception {
    closeLater(startServer());
    GatedSource source = new GatedSource(T);
    TssAgent agent = agent("clicks", source);
    assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
    try (TssClient client = closeLater(TssClient.connect("127.0.0.1", port, null))) {
      client.execute("CREATE TSS once AS EXTRACT clicks.clicks AT '2026-12-02 13:00:00';");
      CompletableFuture<Boolean> finished =
          CompletableFuture.supplyAsync(() -> agent.finish(minutes(1), Duration.ofHours(1)));
      assertTrue(source.entered.await(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS));
      agent.close();
      source.release.countDown();
      assertFalse(finished.get(TestSupport.PATIENCE.toSeconds(), TimeUnit.SECONDS));
    }
  }
}
