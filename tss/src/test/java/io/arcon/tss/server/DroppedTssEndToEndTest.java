package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.StateSource;
import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.client.TssClientException;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DROP TSS against a real agent that is extracting one version and has more queued: it finishes the
 * state it is reading, skips the rest, and the name is free again once it reported.
 */
class DroppedTssEndToEndTest {
  private static final Instant T = Instant.parse("2026-12-02T13:00:00Z");
  private static final String CREATE =
      "CREATE TSS d AS EXTRACT slow_app.x, slow_app.y AT '2026-12-02 13:00:00' FOR EACH 1 MINUTE;";

  @TempDir Path home;

  /** Two counters; the first read blocks until released, and every read is logged. */
  private static final class BlockingSource implements StateSource {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final List<String> reads = new ArrayList<>();
    private final SyntheticApp states = new SyntheticApp().withCounter("x").withCounter("y");

    BlockingSource() {
      states.update("x", "alice", T.minusSeconds(1), 1L);
      states.update("y", "alice", T.minusSeconds(1), 2L);
    }

    @Override
    public List<StateDescriptor> states() {
      return states.states();
    }

    @Override
    public Iterable<StateRow> rows(String stateName, Instant versionTime, Object keyFilter)
        throws InterruptedException {
      boolean first;
      synchronized (reads) {
        first = reads.isEmpty();
        reads.add(stateName + "@" + versionTime);
      }
      if (first) {
        entered.countDown();
        assertTrue(release.await(60, TimeUnit.SECONDS), "never released");
      }
      return states.rows(stateName, versionTime, keyFilter);
    }

    List<String> reads() {
      synchronized (reads) {
        return List.copyOf(reads);
      }
    }
  }

  /** A new TSS of the same name whose first version is not due yet, so it extracts nothing. */
  private static boolean createdAgain(TssClient client) {
    try {
      client.execute("CREATE TSS d AS EXTRACT slow_app.x AT '2026-12-02 14:00:00';");
      return true;
    } catch (TssClientException e) {
      return false;
    }
  }

  @Test
  void aDroppedTssIsSkippedByItsAppAndItsNameIsFreedWhenTheAppReported() throws Exception {
    int port = TestSupport.freePort();
    BlockingSource source = new BlockingSource();
    try (ControlPlaneServer server =
            ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
        TssClient client = TssClient.connect("127.0.0.1", port, null);
        TssAgent agent = TssAgent.builder("slow_app", source).endpoint("127.0.0.1", port).start()) {
      assertTrue(agent.awaitRegistered(TestSupport.PATIENCE));
      client.execute(CREATE);
      // Four versions due at once: 13:00 is being read, 13:01 to 13:03 wait behind it.
      agent.reportWatermark(T.plusSeconds(3 * 60 + 30));
      assertTrue(source.entered.await(60, TimeUnit.SECONDS));

      String dropped = client.execute("DROP TSS d;").message();
      assertTrue(dropped.contains("still extracting it: app slow_app (version " + T), dropped);
      TssClientException reserved =
          assertThrows(TssClientException.class, () -> client.execute(CREATE));
      assertEquals(Status.Code.FAILED_PRECONDITION, reserved.code());

      source.release.countDown();
      TestSupport.await("the name to be free again", () -> createdAgain(client));
      assertEquals(
          List.of("x@" + T),
          source.reads(),
          "the state being read finishes; its next state and the queued versions are skipped");
      try (Stream<Path> left = Files.list(home.resolve("lake/d"))) {
        assertEquals(
            List.of("_definition.json"),
            left.map(p -> p.getFileName().toString()).toList(),
            "nothing of the dropped TSS is left beside the new one's definition");
      }
    }
  }
}
