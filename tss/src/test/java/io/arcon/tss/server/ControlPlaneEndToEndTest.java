package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.agent.TssAgent;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.AppSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end test: a real control plane on loopback, two synthetic apps registered over
 * gRPC through {@link TssAgent}, a periodic two-app DIFF TSS and a TRANSFORM TSS, watermarks driven
 * by the test, committed Parquet read back with DuckDB and with parquet-hadoop, and a control-plane
 * restart in the middle of the schedule.
 */
class ControlPlaneEndToEndTest {
  private static final Instant T1300 = Instant.parse("2026-12-02T13:00:00Z");
  private static final Instant T1305 = Instant.parse("2026-12-02T13:05:00Z");
  private static final Instant T1310 = Instant.parse("2026-12-02T13:10:00Z");
  private static final Instant T1315 = Instant.parse("2026-12-02T13:15:00Z");

  @TempDir Path home;
  private final int port = TestSupport.freePort();
  private ControlPlaneServer server;
  private TssAgent clicksAgent;
  private TssAgent stepsAgent;
  private TssClient client;

  private static Instant at(String hhmm) {
    return Instant.parse("2026-12-02T" + hhmm + ":00Z");
  }

  /** Per-key event-time updates of both apps; a null value clears the key. */
  private final SyntheticApp clicksApp =
      new SyntheticApp()
          .withCounter("clicks")
          .update("clicks", "alice", at("12:58"), 1L)
          .update("clicks", "alice", at("13:03"), 2L)
          .update("clicks", "bob", at("13:04"), 1L)
          .update("clicks", "alice", at("13:07"), 3L)
          .update("clicks", "bob", at("13:08"), null)
          .update("clicks", "carol", at("13:12"), 5L)
          .update("clicks", "carol", at("13:16"), 6L);

  private final SyntheticApp stepsApp =
      new SyntheticApp()
          .withCounter("steps")
          .update("steps", "alice", at("12:59"), 100L)
          .update("steps", "bob", at("13:02"), 50L)
          .update("steps", "alice", at("13:06"), 300L)
          .update("steps", "bob", at("13:13"), 70L);

  @AfterEach
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {client, clicksAgent, stepsAgent, server}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // Closing is best effort; the test outcome is already decided.
      }
    }
  }

  private ControlPlaneServer startServer() {
    return ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", port, null));
  }

  private TssAgent agent(String app, SyntheticApp source) {
    return TssAgent.builder(app, source)
        .endpoint("127.0.0.1", port)
        .backoff(Duration.ofMillis(50), Duration.ofMillis(300))
        .start();
  }

  private Path lake() {
    return home.resolve("lake");
  }

  private Path versionDir(String tss, Instant version) {
    return lake().resolve(tss).resolve("version=" + version);
  }

  private Path stateFile(String tss, Instant version, String app, String state) {
    return versionDir(tss, version).resolve(app).resolve(state).resolve("part-0.parquet");
  }

  private boolean committed(String tss, Instant version) {
    return Files.exists(versionDir(tss, version).resolve("_COMMITTED"));
  }

  /** Waits until the catalog says committed; the marker must be there by then. */
  private void awaitCommitted(String tss, Instant... versions) {
    TestSupport.await(
        tss + " " + List.of(versions) + " to commit",
        () -> {
          Map<String, List<String>> d = describe(tss);
          for (Instant v : versions) {
            List<String> row = d.get(v.toString());
            if (row == null || !row.get(1).equals("committed")) {
              return false;
            }
          }
          return true;
        },
        () -> describe(tss).toString());
    for (Instant v : versions) {
      assertTrue(committed(tss, v), "catalog says committed but no _COMMITTED for " + v);
    }
  }

  private Map<String, List<String>> describe(String tss) {
    StatementResult table = client.execute("DESCRIBE TSS " + tss + ";");
    assertEquals(List.of("version", "status", "detail", "path"), table.columns());
    Map<String, List<String>> byVersion = new TreeMap<>();
    for (List<String> row : table.rows()) {
      byVersion.put(row.get(0), row);
    }
    return byVersion;
  }

  @Test
  void periodicDiffAndTransformTssAcrossTwoAppsAndARestart() throws Exception {
    server = startServer();
    clicksAgent = agent("clicks_app", clicksApp);
    stepsAgent = agent("steps_app", stepsApp);
    assertTrue(clicksAgent.awaitRegistered(TestSupport.PATIENCE));
    assertTrue(stepsAgent.awaitRegistered(TestSupport.PATIENCE));
    client = TssClient.connect("127.0.0.1", port, null);

    StatementResult apps = client.execute("SHOW APPS;");
    assertEquals(
        List.of(
            List.of("clicks_app", "yes", "-", "-", "-", "1"),
            List.of("steps_app", "yes", "-", "-", "-", "1")),
        apps.rows());
    StatementResult describeApp = client.execute("DESCRIBE APP clicks_app;");
    assertEquals(
        List.of(
            "clicks",
            "Count_clicks",
            "clicks",
            "value",
            "STRING",
            "INT64",
            "memory",
            "exact",
            "kept"),
        describeApp.rows().get(0));

    client.execute(
        "CREATE TSS activity AS EXTRACT clicks_app.clicks, steps_app.steps\n"
            + "  AT '2026-12-02 13:00:00' FOR EACH 5 MINUTES UNTIL '2026-12-02 13:15:00' DIFF;");
    client.execute(
        "CREATE TSS joined AS EXTRACT clicks_app.clicks, steps_app.steps\n"
            + "  AT '2026-12-02 14:05:00' TIME ZONE 'Europe/Stockholm'\n"
            + "  FOR EACH 5 MINUTES UNTIL '2026-12-02 14:10:00'\n"
            + "  TRANSFORM 'SELECT c.key AS user_name, c.value AS clicks, s.value AS steps\n"
            + "             FROM clicks_app.clicks c JOIN steps_app.steps s ON c.key = s.key';");
    assertTrue(Files.exists(lake().resolve("activity").resolve("_definition.json")));

    // clicks_app runs ahead; steps_app is held back just past the first version.
    clicksAgent.reportWatermark(at("13:11"));
    stepsAgent.reportWatermark(at("13:01"));
    TestSupport.await(
        "version 13:00 to commit",
        () -> committed("activity", T1300),
        () -> describe("activity").toString());
    TestSupport.await(
        "clicks_app to seal 13:05 and 13:10",
        () -> {
          Map<String, List<String>> d = describe("activity");
          String waitingOnSteps = "waiting on steps_app (watermark 2026-12-02T13:01:00Z)";
          return d.containsKey(T1310.toString())
              && waitingOnSteps.equals(d.get(T1305.toString()).get(2))
              && waitingOnSteps.equals(d.get(T1310.toString()).get(2));
        },
        () -> describe("activity").toString());
    // Sealed by one app only: its files are there, the version is not committed.
    assertTrue(Files.exists(stateFile("activity", T1305, "clicks_app", "clicks")));
    assertFalse(committed("activity", T1305), "committed before steps_app sealed");
    assertFalse(committed("activity", T1310), "committed before steps_app sealed");
    assertEquals("waiting", describe("activity").get(T1305.toString()).get(1));
    assertEquals(
        "waiting on clicks_app (watermark 2026-12-02T13:11:00Z), steps_app (watermark"
            + " 2026-12-02T13:01:00Z)",
        describe("activity").get(T1315.toString()).get(2));

    stepsAgent.reportWatermark(at("13:11"));
    awaitCommitted("activity", T1305, T1310);
    assertEquals("committed", describe("activity").get(T1310.toString()).get(1));

    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      assertEquals(
          List.of("insert alice 1 12:58"),
          diffRows(duck, stateFile("activity", T1300, "clicks_app", "clicks")));
      assertEquals(
          List.of("insert bob 1 13:04", "update alice 2 13:03"),
          diffRows(duck, stateFile("activity", T1305, "clicks_app", "clicks")));
      assertEquals(
          List.of("delete bob null 13:04", "update alice 3 13:07"),
          diffRows(duck, stateFile("activity", T1310, "clicks_app", "clicks")));
      assertEquals(
          List.of("insert alice 100 12:59"),
          diffRows(duck, stateFile("activity", T1300, "steps_app", "steps")));
      assertEquals(
          List.of("insert bob 50 13:02"),
          diffRows(duck, stateFile("activity", T1305, "steps_app", "steps")));
      assertEquals(
          List.of("update alice 300 13:06"),
          diffRows(duck, stateFile("activity", T1310, "steps_app", "steps")));
      assertVersionColumn(duck, "activity", List.of(T1300, T1305, T1310));
    }
    // The same files through parquet-hadoop's own reader.
    assertEquals(
        List.of("update alice 3", "delete bob null"),
        parquetRows(stateFile("activity", T1310, "clicks_app", "clicks"), T1310));

    // Restart the control plane: definitions and committed versions survive, the apps reconnect,
    // scheduling goes on where it stopped.
    server.close();
    assertFalse(committed("activity", T1315));
    server = startServer();
    assertEquals(
        List.of("activity", "joined"),
        client.execute("SHOW TSS;").rows().stream().map(r -> r.get(0)).toList());
    Map<String, List<String>> afterRestart = describe("activity");
    for (Instant v : List.of(T1300, T1305, T1310)) {
      assertEquals("committed", afterRestart.get(v.toString()).get(1), v.toString());
    }
    TestSupport.await(
        "both agents to re-register",
        () -> {
          List<AppSummary> now = client.showApps();
          return now.size() == 2 && now.stream().allMatch(AppSummary::getConnected);
        });
    clicksAgent.reportWatermark(at("13:20"));
    stepsAgent.reportWatermark(at("13:20"));
    awaitCommitted("activity", T1315);
    Map<String, List<String>> finished = describe("activity");
    assertEquals(
        List.of(T1300.toString(), T1305.toString(), T1310.toString(), T1315.toString()),
        List.copyOf(finished.keySet()),
        "UNTIL 13:15 ends the schedule");
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      assertEquals(
          List.of("insert carol 5 13:12"),
          diffRows(duck, stateFile("activity", T1315, "clicks_app", "clicks")));
      assertEquals(
          List.of("update bob 70 13:13"),
          diffRows(duck, stateFile("activity", T1315, "steps_app", "steps")));
      assertVersionColumn(duck, "activity", List.of(T1300, T1305, T1310, T1315));
    }
    // Only the last committed version's full rows stay in the hidden staging area.
    try (Stream<Path> staged = Files.list(lake().resolve("activity").resolve("_full"))) {
      assertEquals(
          List.of("version=" + T1315), staged.map(p -> p.getFileName().toString()).toList());
    }

    // TRANSFORM: 14:05 and 14:10 Stockholm are 13:05 and 13:10 UTC.
    awaitCommitted("joined", T1305, T1310);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      assertEquals(
          List.of("alice 2 100", "bob 1 50"), transformRows(duck, versionDir("joined", T1305)));
      assertEquals(List.of("alice 3 300"), transformRows(duck, versionDir("joined", T1310)));
    }

    StatementResult dropped = client.execute("DROP TSS joined;");
    assertEquals(
        "TSS joined dropped; removed " + LakeLayout.normalize(lake().toString()) + "/joined",
        dropped.message());
    assertFalse(Files.exists(lake().resolve("joined")));
  }

  private static Instant micros(long epochMicros) {
    return Instant.EPOCH.plus(epochMicros, ChronoUnit.MICROS);
  }

  /** "op key value HH:MM(updated_at)" of a DIFF file, sorted, read with DuckDB. */
  private static List<String> diffRows(Connection duck, Path file) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement st = duck.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT op, key, value, epoch_us(updated_at), epoch_us(version) FROM read_parquet('"
                    + file
                    + "') ORDER BY op, key")) {
      while (rs.next()) {
        Instant updated = micros(rs.getLong(4));
        Instant version = micros(rs.getLong(5));
        assertTrue(updated.isBefore(version), "updated_at " + updated + " >= version " + version);
        Object value = rs.getObject(3);
        rows.add(
            rs.getString(1)
                + " "
                + rs.getString(2)
                + " "
                + value
                + " "
                + updated.toString().substring(11, 16));
      }
    }
    return rows;
  }

  /**
   * Over every committed version: the {@code version} column equals the directory's time, and no
   * row has {@code updated_at} at or after its version.
   */
  private void assertVersionColumn(Connection duck, String tss, List<Instant> versions)
      throws SQLException {
    for (Instant v : versions) {
      try (Statement st = duck.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT count(*), count(*) FILTER (WHERE updated_at >= version),"
                      + " epoch_us(min(version)), epoch_us(max(version)) FROM read_parquet('"
                      + versionDir(tss, v)
                      + "/*/*/part-0.parquet')")) {
        assertTrue(rs.next());
        assertTrue(rs.getLong(1) > 0, "no rows in " + v);
        assertEquals(0, rs.getLong(2), "rows at or above the version time in " + v);
        assertEquals(v, micros(rs.getLong(3)));
        assertEquals(v, micros(rs.getLong(4)));
      }
    }
  }

  private static List<String> transformRows(Connection duck, Path versionDir) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement st = duck.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT user_name, clicks, steps FROM read_parquet('"
                    + versionDir.resolve("transform").resolve("part-0.parquet")
                    + "') ORDER BY user_name")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getLong(3));
      }
    }
    return rows;
  }

  /** "op key value" through parquet-hadoop's example Group reader, checking updated_at < T. */
  private static List<String> parquetRows(Path file, Instant version) throws Exception {
    List<String> rows = new ArrayList<>();
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(conf)
            .build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        long updatedMicros = g.getLong("updated_at", 0);
        long versionMicros = g.getLong("version", 0);
        assertEquals(version.toEpochMilli() * 1000, versionMicros);
        assertTrue(updatedMicros < versionMicros, "updated_at not before the version");
        String value =
            g.getFieldRepetitionCount("value") == 0 ? "null" : Long.toString(g.getLong("value", 0));
        rows.add(g.getString("op", 0) + " " + g.getString("key", 0) + " " + value);
      }
    }
    return rows;
  }
}
