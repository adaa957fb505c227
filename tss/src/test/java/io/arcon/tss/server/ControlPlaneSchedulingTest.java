package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.StateSource;
import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.StateDescriptor;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.proto.Consistency;
import io.arcon.tss.proto.ExtractionAssignment;
import io.arcon.tss.wire.ProtoTime;
import io.arcon.tss.write.ParquetVersionReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneSchedulingTest {
  private static final Instant T = Instant.parse("2026-12-02T13:00:00Z");

  @TempDir Path home;
  private final int port = TestSupport.freePort();
  private ControlPlaneServer server;
  private TssClient client;

  @BeforeEach
  void start() {
    server = ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
    client = TssClient.connect("127.0.0.1", port, null);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private List<List<String>> versions(String tss) {
    return client.execute("DESCRIBE TSS " + tss + ";").rows();
  }

  private String status(String tss, Instant version) {
    for (List<String> row : versions(tss)) {
      if (row.get(0).equals(version.toString())) {
        return row.get(1) + ": " + row.get(2);
      }
    }
    return "absent";
  }

  @Test
  void anUnboundedScheduleIsGeneratedAsWatermarksAdvance() throws Exception {
    try (RawApp app = new RawApp(port).register("metrics_app", "gauge")) {
      client.execute(
          "CREATE TSS g AS EXTRACT metrics_app.gauge AT '2026-12-02 13:00:00' FOR EACH 5"
              + " MINUTES;");
      assertEquals(
          List.of(
              List.of(
                  T.toString(),
                  "waiting",
                  "waiting on metrics_app (no watermark yet)",
                  LakeLayout.normalize(home.resolve("lake").toString()) + "/g/version=" + T)),
          versions("g"));

      app.watermark(T.plus(Duration.ofHours(1)));
      List<Instant> assigned = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        assigned.add(ProtoTime.toInstant(app.nextAssignment().getVersion()));
      }
      List<Instant> expected = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        expected.add(T.plus(Duration.ofMinutes(5L * i)));
      }
      assertEquals(expected, assigned, "13:00 .. 13:55 are below the watermark 14:00");
      List<List<String>> rows = versions("g");
      assertEquals(13, rows.size(), "the passed versions plus the next one");
      assertEquals(
          List.of(T.plus(Duration.ofHours(1)).toString(), "waiting"), rows.get(12).subList(0, 2));
    }
  }

  @Test
  void aReconnectingAppGetsItsOutstandingAssignmentAndSealingTwiceIsHarmless() throws Exception {
    try (RawApp app = new RawApp(port).register("metrics_app", "gauge")) {
      client.execute("CREATE TSS once AS EXTRACT metrics_app.gauge AT '2026-12-02 13:00:00';");
      app.watermark(T.plusSeconds(1));
      ExtractionAssignment first = app.nextAssignment();
      assertEquals("once", first.getTss());
      assertEquals(List.of("gauge"), first.getStatesList());
      assertEquals(
          LakeLayout.normalize(home.resolve("lake").toString())
              + "/once/version=2026-12-02T13:00:00Z/metrics_app",
          first.getTargetDirectory());

      app.crash();
      TestSupport.await(
          "the control plane to notice the crash", () -> !client.showApps().get(0).getConnected());
      assertEquals(
          "waiting: waiting on metrics_app (disconnected, watermark 2026-12-02T13:00:01Z)",
          status("once", T));

      app.register("metrics_app", "gauge");
      ExtractionAssignment again = app.nextAssignment();
      assertEquals(first, again);
      app.seal(again, "gauge", again.getTargetDirectory() + "/gauge/part-0.parquet");
      app.seal(again, "gauge", again.getTargetDirectory() + "/gauge/part-0.parquet");
      TestSupport.await(
          "the version to commit",
          () -> status("once", T).startsWith("committed"),
          () -> status("once", T));
      assertTrue(Files.exists(home.resolve("lake/once/version=2026-12-02T13:00:00Z/_COMMITTED")));
      assertTrue(client.showApps().get(0).getConnected(), "a repeated seal broke the stream");
    }
  }

  /**
   * A new run of an app (another agent) starts over or from a checkpoint, behind where the previous
   * run's watermark was: the version is due for it only once it reports its own watermark past T,
   * not at once on the strength of the previous run's (which committed state that had not reached
   * T).
   */
  @Test
  void aNewRunOfAnAppGetsNoAssignmentBeforeItsOwnWatermarkPassesTheVersion() throws Exception {
    try (RawApp firstRun = new RawApp(port).register("metrics_app", "gauge")) {
      firstRun.watermark(T.plus(Duration.ofMinutes(7)));
      TestSupport.await(
          "the watermark to arrive",
          () -> client.showApps().get(0).hasWatermark(),
          () -> client.showApps().toString());
      firstRun.crash();
      TestSupport.await(
          "the control plane to notice the crash", () -> !client.showApps().get(0).getConnected());
    }
    client.execute("CREATE TSS late AS EXTRACT metrics_app.gauge AT '2026-12-02 13:05:00';");

    try (RawApp secondRun = new RawApp(port).register("metrics_app", "gauge")) {
      assertEquals(
          "waiting: waiting on metrics_app (no watermark yet)",
          status("late", T.plus(Duration.ofMinutes(5))));
      secondRun.watermark(T.plus(Duration.ofMinutes(1)));
      assertEquals(null, secondRun.poll(500), "assigned before the new run passed the version");

      secondRun.watermark(T.plus(Duration.ofMinutes(6)));
      ExtractionAssignment assignment = secondRun.nextAssignment();
      assertEquals(T.plus(Duration.ofMinutes(5)), ProtoTime.toInstant(assignment.getVersion()));
    }
  }

  /** Rows a source can release: the agent closes them when the version is written or failed. */
  private record ClosableRows(List<StateRow> rows, AtomicBoolean closed)
      implements Iterable<StateRow>, AutoCloseable {
    @Override
    public Iterator<StateRow> iterator() {
      return rows.iterator();
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @Test
  void keyFilterReachesTheFilesAndAFutureRowFailsAnExactVersionOnly() throws Exception {
    AtomicBoolean leakClosed = new AtomicBoolean();
    SyntheticApp counters =
        new SyntheticApp()
            .withCounter("user_clicks", FieldType.INT64)
            .update("user_clicks", 1L, T.minusSeconds(60), 10L)
            .update("user_clicks", 2L, T.minusSeconds(30), 20L);
    StateSource leaky =
        new StateSource() {
          @Override
          public List<StateDescriptor> states() {
            return counters.states();
          }

          @Override
          public Iterable<StateRow> rows(String state, Instant version, Object keyFilter) {
            // A broken source: answers with an update at the version time itself.
            return new ClosableRows(List.of(new StateRow(1L, null, 11L, version)), leakClosed);
          }
        };
    StateSource cut =
        new StateSource() {
          @Override
          public List<StateDescriptor> states() {
            StateDescriptor exact = counters.states().get(0);
            return List.of(
                new StateDescriptor(
                    exact.name(),
                    exact.transform(),
                    exact.stateId(),
                    exact.kind(),
                    exact.schema(),
                    exact.backend(),
                    Consistency.WATERMARK_CUT));
          }

          @Override
          public Iterable<StateRow> rows(String state, Instant version, Object keyFilter) {
            // Legitimate for a watermark cut: processed before the watermark passed T.
            return List.of(new StateRow(1L, null, 11L, version));
          }
        };
    try (TssAgent good =
            TssAgent.builder("counter_app", counters).endpoint("127.0.0.1", port).start();
        TssAgent bad = TssAgent.builder("leaky_app", leaky).endpoint("127.0.0.1", port).start();
        TssAgent cutAgent = TssAgent.builder("cut_app", cut).endpoint("127.0.0.1", port).start()) {
      assertTrue(good.awaitRegistered(TestSupport.PATIENCE));
      assertTrue(bad.awaitRegistered(TestSupport.PATIENCE));
      assertTrue(cutAgent.awaitRegistered(TestSupport.PATIENCE));
      assertEquals("watermark_cut", client.execute("DESCRIBE APP cut_app;").rows().get(0).get(7));
      client.execute("CREATE TSS cut AS EXTRACT cut_app.user_clicks AT '2026-12-02 13:00:00';");
      cutAgent.reportWatermark(T.plusSeconds(1));
      client.execute(
          "CREATE TSS only_two AS EXTRACT counter_app.user_clicks ON KEY '2' AT '2026-12-02"
              + " 13:00:00';");
      client.execute("CREATE TSS leak AS EXTRACT leaky_app.user_clicks AT '2026-12-02 13:00:00';");
      good.reportWatermark(T.plusSeconds(1));
      bad.reportWatermark(T.plusSeconds(1));

      TestSupport.await(
          "only_two to commit",
          () -> status("only_two", T).startsWith("committed"),
          () -> status("only_two", T));
      List<StateRow> rows =
          new ParquetVersionReader()
              .read(
                  home.resolve(
                          "lake/only_two/version=2026-12-02T13:00:00Z/counter_app/user_clicks/part-0.parquet")
                      .toString())
              .rows();
      assertEquals(List.of(new StateRow(2L, null, 20L, T.minusSeconds(30))), rows);

      TestSupport.await(
          "leak to fail", () -> status("leak", T).startsWith("failed"), () -> status("leak", T));
      assertEquals(
          "failed: app leaky_app: state user_clicks returned key 1 updated at"
              + " 2026-12-02T13:00:00Z, not before the version time 2026-12-02T13:00:00Z; a version"
              + " holds only updates with event time < T",
          status("leak", T));
      assertFalse(Files.exists(home.resolve("lake/leak/version=2026-12-02T13:00:00Z/_COMMITTED")));
      assertTrue(leakClosed.get(), "the agent closes the rows of a version whose write failed");

      TestSupport.await(
          "cut to commit", () -> status("cut", T).startsWith("committed"), () -> status("cut", T));
      assertEquals(
          List.of(new StateRow(1L, null, 11L, T)),
          new ParquetVersionReader()
              .read(
                  home.resolve(
                          "lake/cut/version=2026-12-02T13:00:00Z/cut_app/user_clicks/part-0.parquet")
                      .toString())
              .rows());
    }
  }

  @Test
  void dropRemovesTheDefinitionAndItsFilesForGood() throws Exception {
    try (RawApp app = new RawApp(port).register("metrics_app", "gauge")) {
      client.execute("CREATE TSS doomed AS EXTRACT metrics_app.gauge AT '2026-12-02 13:00:00';");
      app.watermark(T.plusSeconds(1));
      ExtractionAssignment a = app.nextAssignment();
      app.seal(a, "gauge", a.getTargetDirectory() + "/gauge/part-0.parquet");
      TestSupport.await("commit", () -> status("doomed", T).startsWith("committed"));
      assertTrue(Files.exists(home.resolve("lake/doomed/_definition.json")));

      StatementResult dropped = client.execute("DROP TSS doomed;");
      assertTrue(dropped.message().startsWith("TSS doomed dropped"), dropped.message());
      assertFalse(Files.exists(home.resolve("lake/doomed")));
      assertFalse(Files.exists(home.resolve("catalog/tss/doomed.json")));
    }
    server.close();
    server = ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
    assertEquals(List.of(), client.execute("SHOW TSS;").rows());
  }

  @Test
  void appsAreToldWhichStatesATssStillReads() throws Exception {
    try (RawApp app = new RawApp(port).register("metrics_app", "gauge")) {
      assertEquals(List.of(), app.nextStatesRead().getStatesList(), "no TSS yet");

      client.execute("CREATE TSS once AS EXTRACT metrics_app.gauge AT '2026-12-02 13:00:00';");
      assertEquals(List.of("gauge"), app.nextStatesRead().getStatesList());

      app.watermark(T.plusSeconds(1));
      ExtractionAssignment assignment = app.nextAssignment();
      app.seal(assignment, "gauge", assignment.getTargetDirectory() + "/gauge/part-0.parquet");
      assertEquals(
          List.of(),
          app.nextStatesRead().getStatesList(),
          "a TSS whose last version is committed reads nothing more");
      assertTrue(status("once", T).startsWith("committed"), status("once", T));

      client.execute(
          "CREATE TSS every AS EXTRACT metrics_app.gauge AT '2026-12-02 14:00:00' FOR EACH 1"
              + " MINUTE;");
      assertEquals(List.of("gauge"), app.nextStatesRead().getStatesList());

      // A new stream is told again.
      app.register("metrics_app", "gauge");
      assertEquals(List.of("gauge"), app.nextStatesRead().getStatesList());

      client.execute("DROP TSS every;");
      assertEquals(List.of(), app.nextStatesRead().getStatesList());
      assertEquals(null, app.pollStatesRead(300), "told once per change");
    }
  }
}
