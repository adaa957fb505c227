package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
