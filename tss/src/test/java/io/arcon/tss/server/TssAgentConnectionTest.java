package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.StateSource;
import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TssAgentConnectionTest {
  @TempDir Path home;

  @Test
  void anAgentStartedBeforeTheControlPlaneRegistersOnceItIsUp() throws Exception {
    int port = TestSupport.freePort();
    SyntheticApp app = new SyntheticApp().withCounter("clicks");
    try (TssAgent agent =
        TssAgent.builder("early_app", app)
            .endpoint("127.0.0.1", port)
            .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
            .start()) {
      TestSupport.await("a failed attempt", () -> agent.lastError() != null, agent::lastError);
      assertTrue(agent.lastError().startsWith("UNAVAILABLE"), agent.lastError());
      try (ControlPlaneServer server =
              ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
          TssClient client = TssClient.connect("127.0.0.1", port, null)) {
        assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
        assertEquals("early_app", client.showApps().get(0).getName());
      }
    }
  }

  @Test
  void aSourceThatCannotListItsStatesYetIsRetried() throws Exception {
    SyntheticApp app = new SyntheticApp().withCounter("clicks");
    AtomicInteger calls = new AtomicInteger();
    StateSource starting =
        new StateSource() {
          @Override
          public List<StateDescriptor> states() {
            if (calls.incrementAndGet() <= 2) {
              throw new IllegalStateException("pipeline still starting");
            }
            return app.states();
          }

          @Override
          public Iterable<StateRow> rows(String state, Instant version, Object keyFilter)
              throws Exception {
            return app.rows(state, version, keyFilter);
          }
        };
    try (ControlPlaneServer server =
            ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null));
        TssAgent agent =
            TssAgent.builder("slow_app", starting)
                .endpoint("127.0.0.1", server.port())
                .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
                .start()) {
      assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
      assertTrue(calls.get() >= 3);
    }
  }

  /** Counts the agent's attempts to register: it lists its states before each one. */
  private static final class CountingSource implements StateSource {
    private final SyntheticApp app;
    final AtomicInteger attempts = new AtomicInteger();

    CountingSource(SyntheticApp app) {
      this.app = app;
    }

    @Override
    public List<StateDescriptor> states() {
      attempts.incrementAndGet();
      return app.states();
    }

    @Override
    public Iterable<StateRow> rows(String state, Instant version, Object keyFilter) {
      return app.rows(state, version, keyFilter);
    }
  }

  @Test
  void aMissingControlPlaneIsReportedOnceAtInfoAndSoIsItsLoss() throws Exception {
    int port = TestSupport.freePort();
    CountingSource source = new CountingSource(new SyntheticApp().withCounter("clicks"));
    String log =
        TestSupport.captureStderr(
            () -> {
              try (TssAgent agent =
                  TssAgent.builder("quiet_app", source)
                      .endpoint("127.0.0.1", port)
                      .backoff(Duration.ofMillis(10), Duration.ofMillis(40))
                      .start()) {
                agent.reportWatermark(Instant.parse("2026-12-02T13:00:00Z"));
                TestSupport.await("four attempts", () -> source.attempts.get() >= 4);
                try (ControlPlaneServer server =
                    ControlPlaneServer.start(
                        new ServerConfig(home, null, "127.0.0.1", port, null))) {
                  assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
                }
                int before = source.attempts.get();
                TestSupport.await(
                    "four attempts after the loss", () -> source.attempts.get() >= before + 4);
              }
            });
    String agentLogger = "io.arcon.tss.agent.TssAgent - ";
    assertEquals(
        List.of(
            "INFO "
                + agentLogger
                + "no TSS control plane at 127.0.0.1:"
                + port
                + " yet; app quiet_app retries in the background"),
        strip(TestSupport.linesWith(log, "no TSS control plane")));
    assertEquals(
        List.of(
            "INFO "
                + agentLogger
                + "app quiet_app registered with the TSS control plane at 127.0.0.1:"
                + port),
        strip(TestSupport.linesWith(log, "registered with the TSS control plane")));
    assertEquals(
        List.of(
            "INFO "
                + agentLogger
                + "app quiet_app lost the TSS control plane at 127.0.0.1:"
                + port
                + "; it retries in the background"),
        strip(TestSupport.linesWith(log, "lost the TSS control plane")));
    assertEquals(List.of(), TestSupport.linesWith(log, "WARN " + agentLogger));
  }

  /** A log line without slf4j-simple's thread prefix ({@code [thread] }). */
  private static List<String> strip(List<String> lines) {
    return lines.stream().map(l -> l.substring(l.indexOf("] ") + 2)).toList();
  }

  @Test
  void aSecondAppOfTheSameNameWaitsUntilTheFirstLeaves() throws Exception {
    SyntheticApp first = new SyntheticApp().withCounter("x");
    CountingSource second = new CountingSource(new SyntheticApp().withCounter("y"));
    try (ControlPlaneServer server =
            ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null));
        TssClient client = TssClient.connect("127.0.0.1", server.port(), null)) {
      TssAgent firstAgent =
          TssAgent.builder("clicks", first).endpoint("127.0.0.1", server.port()).start();
      assertTrue(firstAgent.awaitRegistered(TestSupport.PATIENCE));
      TssAgent[] secondAgent = new TssAgent[1];
      String log =
          TestSupport.captureStderr(
              () -> {
                secondAgent[0] =
                    TssAgent.builder("clicks", second)
                        .endpoint("127.0.0.1", server.port())
                        .backoff(Duration.ofMillis(10), Duration.ofMillis(30))
                        .start();
                TestSupport.await("three refused attempts", () -> second.attempts.get() >= 3);
              });
      try (TssAgent refused = secondAgent[0]) {
        assertFalse(refused.isRegistered());
        assertTrue(
            refused
                .lastError()
                .startsWith("ALREADY_EXISTS: app clicks is already running (connected since "),
            refused.lastError());
        List<String> warnings = TestSupport.linesWith(log, "WARN io.arcon.tss.agent.TssAgent");
        assertEquals(1, warnings.size(), log);
        assertTrue(
            warnings.get(0).contains("give this pipeline another --jobName or stop the other one"),
            warnings.get(0));
        // The first keeps its session and its catalog.
        assertTrue(firstAgent.isRegistered());
        assertEquals(List.of("x"), stateNames(client));

        firstAgent.close();
        assertTrue(refused.awaitRegistered(TestSupport.PATIENCE));
        assertEquals(List.of("y"), stateNames(client));
        assertTrue(client.showApps().get(0).getConnected());
      }
    }
  }

  private static List<String> stateNames(TssClient client) {
    return client.describeApp("clicks").getStatesList().stream().map(s -> s.getName()).toList();
  }

  @Test
  void theSourceHearsWhichStatesATssReads() throws Exception {
    int port = TestSupport.freePort();
    SyntheticApp app = new SyntheticApp().withCounter("clicks").withCounter("steps");
    try (ControlPlaneServer server =
            ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
        TssClient client = TssClient.connect("127.0.0.1", port, null);
        TssAgent agent = TssAgent.builder("read_app", app).endpoint("127.0.0.1", port).start()) {
      assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
      TestSupport.await(
          "the empty set after registering",
          () -> Set.of().equals(app.lastStatesRead()),
          () -> String.valueOf(app.lastStatesRead()));
      client.execute(
          "CREATE TSS r AS EXTRACT read_app.steps AT '2026-12-02 13:00:00' FOR EACH 1 MINUTE;");
      TestSupport.await(
          "steps to be read",
          () -> Set.of("steps").equals(app.lastStatesRead()),
          () -> String.valueOf(app.lastStatesRead()));
      client.execute("DROP TSS r;");
      TestSupport.await(
          "nothing to be read after DROP",
          () -> Set.of().equals(app.lastStatesRead()),
          () -> String.valueOf(app.lastStatesRead()));
    }
  }
}
