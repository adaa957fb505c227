package io.arcon.tss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lang.TssParser;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.write.ParquetVersionWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionQueryRunnerTest {
  static final Instant V1 = Instant.parse("2026-12-02T13:00:00Z");
  static final Instant V2 = Instant.parse("2026-12-02T13:05:00Z");
  static final Instant V3 = Instant.parse("2026-12-02T13:10:00Z");
  static final StateSchema COUNTS = new StateSchema(FieldType.STRING, FieldType.INT64);

  @TempDir Path lake;

  /** Writes one state file of a version the way the control plane's agents do. */
  static void writeState(
      Path lake, String tss, Instant version, String app, String state, List<StateRow> rows) {
    new ParquetVersionWriter()
        .writeVersion(
            lake.resolve(tss)
                .resolve("version=" + version)
                .resolve(app)
                .resolve(state)
                .resolve("part-00000.parquet")
                .toString(),
            COUNTS,
            rows,
            version);
  }

  static StateRow row(String key, long value, Instant updatedAt) {
    return new StateRow(key, null, value, updatedAt);
  }

  static void commit(Path lake, String tss, Instant version) throws Exception {
    Files.createFile(lake.resolve(tss).resolve("version=" + version).resolve("_COMMITTED"));
  }

  @BeforeEach
  void lakeWithTwoCommittedVersionsAndOnePending() throws Exception {
    Instant t = Instant.parse("2026-12-02T12:59:00Z");
    writeState(lake, "t", V1, "app1", "clicks", List.of(row("alice", 1, t), row("bob", 2, t)));
    writeState(lake, "t", V1, "app2", "Count.steps", List.of(row("alice", 10, t)));
    commit(lake, "t", V1);
    writeState(lake, "t", V2, "app1", "clicks", List.of(row("alice", 5, t), row("bob", 2, t)));
    writeState(lake, "t", V2, "app2", "Count.steps", List.of(row("alice", 11, t)));
    commit(lake, "t", V2);
    // Sealed by app1 only: not committed, so QUERY must not see it.
    writeState(lake, "t", V3, "app1", "clicks", List.of(row("alice", 99, t)));
  }

  private TextTable query(String text) {
    return new VersionQueryRunner(lake.toString()).run(TssParser.parseQuery(text));
  }

  @Test
  void latestCommittedVersionByDefault() {
    TextTable result = query("QUERY t SELECT key, value FROM app1.clicks ORDER BY key");
    assertEquals(List.of("key", "value"), result.columns());
    assertEquals(List.of(List.of("alice", "5"), List.of("bob", "2")), result.rows());
    assertEquals("version 2026-12-02T13:05:00Z of t", result.message());
  }

  @Test
  void explicitVersionAndJoinAcrossApps() {
    TextTable result =
        query(
            "QUERY t VERSION '2026-12-02 14:00' TIME ZONE 'Europe/Stockholm'"
                + " SELECT c.key, c.value + s.value AS total, c.version"
                + " FROM app1.clicks c JOIN app2.\"Count.steps\" s USING (key)");
    assertEquals(List.of("key", "total", "version"), result.columns());
    assertEquals(1, result.rows().size());
    assertEquals("alice", result.rows().get(0).get(0));
    assertEquals("11", result.rows().get(0).get(1));
    assertTrue(result.rows().get(0).get(2).startsWith("2026-12-02"), result.rows().toString());
  }

  /**
   * The {@code version} column is the file's own (an instant, like {@code updated_at}), not the
   * {@code version=<T>} directory name DuckDB would read as a hive partition: that one is a
   * timestamp without zone, which compared wrongly with {@code updated_at} outside UTC.
   */
  @Test
  void theVersionColumnIsTheFilesOwnInstantNotTheDirectoryName() {
    TextTable result =
        query(
            "QUERY t SELECT typeof(version) AS v, typeof(updated_at) AS u,"
                + " count(*) FILTER (WHERE updated_at < version) AS before"
                + " FROM app1.clicks GROUP BY ALL");
    assertEquals(
        List.of(List.of("TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE", "2")),
        result.rows());
    // Printed as UTC instants, whatever the JVM's zone.
    assertEquals(
        List.of(List.of("2026-12-02T13:05:00Z", "2026-12-02T12:59:00Z")),
        query("QUERY t SELECT DISTINCT version, updated_at FROM app1.clicks").rows());
  }

  @Test
  void uncommittedVersionsAreInvisible() {
    assertEquals(
        List.of(V1, V2), new VersionQueryRunner(lake.toUri().toString()).committedVersions("t"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> query("QUERY t VERSION '2026-12-02T13:10:00Z' SELECT * FROM app1.clicks"));
    assertEquals(
        "version 2026-12-02T13:10:00Z of TSS t is not committed; committed versions:"
            + " 2026-12-02T13:00:00Z, 2026-12-02T13:05:00Z",
        e.getMessage());
  }

  @Test
  void anUnknownTssIsNamedSo() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> query("QUERY nope SELECT 1"));
    assertEquals(
        "unknown TSS 'nope': the lake " + lake + " holds nothing of it; SHOW TSS lists the TSSs",
        e.getMessage());
  }

  @Test
  void aTssWithoutACommittedVersionSaysWhereToLook() throws IOException {
    Files.createDirectories(lake.resolve("fresh"));
    Files.writeString(lake.resolve("fresh/_definition.json"), "{}");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> query("QUERY fresh SELECT 1"));
    assertEquals(
        "TSS fresh has no committed version in "
            + lake
            + "; DESCRIBE TSS fresh shows what its versions wait for",
        e.getMessage());
  }

  @Test
  void sqlCannotReadOtherFilesNorWrite() throws Exception {
    Path secret = lake.resolve("secret.csv");
    Files.writeString(secret, "x\n1\n");
    // The other version's file is in the same lake but not in the queried version.
    Path otherVersion = lake.resolve("t/version=" + V1 + "/app1/clicks/part-00000.parquet");
    for (String sql :
        List.of(
            "SELECT * FROM read_csv('" + secret + "')",
            "SELECT * FROM read_parquet('" + otherVersion + "')",
            "SELECT * FROM glob('" + lake + "/*')")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> query("QUERY t " + sql), sql);
      assertTrue(e.getMessage().startsWith("QUERY failed: Permission Error"), e.getMessage());
    }
    Path target = lake.resolve("t/version=" + V2 + "/written.csv");
    for (String sql :
        List.of(
            "COPY (SELECT 1) TO '" + target + "'",
            "EXPLAIN ANALYZE COPY (SELECT 1) TO '" + target + "'",
            "ATTACH '" + lake.resolve("attached.db") + "'",
            "SET enable_external_access = true")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> query("QUERY t " + sql), sql);
      assertTrue(e.getMessage().startsWith("QUERY runs read-only SQL"), e.getMessage());
    }
    assertFalse(Files.exists(target));
  }

  @Test
  void transformResultIsATable() throws Exception {
    Instant t = Instant.parse("2026-12-02T12:59:00Z");
    new ParquetVersionWriter()
        .writeVersion(
            lake.resolve("x/version=" + V1 + "/transform/part-0.parquet").toString(),
            COUNTS,
            List.of(row("k", 7, t)),
            V1);
    commit(lake, "x", V1);
    TextTable result = query("QUERY x SELECT key, value FROM transform");
    assertEquals(List.of(List.of("k", "7")), result.rows());
  }

  @Test
  void remoteLakesAreRefusedClearly() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new VersionQueryRunner("s3a://b/lake"));
    assertTrue(
        e.getMessage().startsWith("QUERY reads local lakes only, but the lake is s3a://b/lake"));
  }
}
