package io.arcon.tss.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.WindowBounds;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DuckDbTransformTest {
  @TempDir Path dir;

  static final Instant V = Instant.parse("2026-12-02T13:00:00Z");
  static final Instant T = Instant.parse("2026-12-02T12:30:00Z");
  static final StateSchema CLICKS = new StateSchema(FieldType.STRING, FieldType.INT64);
  static final StateSchema STEPS =
      new StateSchema(
          FieldType.STRING,
          RowType.of(
              Field.required("steps", FieldType.INT64), Field.of("device", FieldType.STRING)));

  Map<String, StateSchema> schemas;
  Map<String, List<String>> files;
  String secretFile;

  @BeforeEach
  void writeVersion() throws Exception {
    LakeLayout lake = new LakeLayout(dir.resolve("lake").toString());
    ParquetVersionWriter w = new ParquetVersionWriter();
    WindowBounds w1 = new WindowBounds(T, T.plusSeconds(300));
    String clicks = lake.stateFile("t", V, "app1", "clicks");
    w.writeVersion(
        clicks,
        CLICKS,
        List.of(
            new StateRow("alice", null, 3L, T),
            new StateRow("bob", null, 5L, T),
            new StateRow("alice", w1, 2L, T)),
        V);
    String clicks2 = lake.stateDir("t", V, "app1", "clicks") + "/" + LakeLayout.partFileName(1);
    w.writeVersion(clicks2, CLICKS, List.of(new StateRow("carol", null, 1L, T)), V);
    String steps = lake.stateFile("t", V, "app2", "Count.steps");
    w.writeVersion(
        steps,
        STEPS,
        List.of(
            new StateRow("alice", null, List.of(1000L, "watch"), T),
            new StateRow("bob", null, java.util.Arrays.asList(20L, null), T)),
        V);
    schemas = new LinkedHashMap<>();
    schemas.put("app1.clicks", CLICKS);
    schemas.put("app2.Count.steps", STEPS);
    files = new LinkedHashMap<>();
    files.put("app1.clicks", List.of(clicks, clicks2));
    files.put("app2.Count.steps", List.of(steps));
    // A file outside the version that a TRANSFORM must not be able to read.
    secretFile = dir.resolve("secret.parquet").toString();
    w.writeVersion(secretFile, CLICKS, List.of(new StateRow("secret", null, 42L, T)), V);
    Files.writeString(dir.resolve("secret.csv"), "a,b\n1,2\n");
  }

  static final String JOIN =
      "SELECT c.key AS name, c.value AS clicks, s.value.steps AS steps\n"
          + "FROM app1.clicks c JOIN app2.\"Count.steps\" s ON c.key = s.key\n"
          + "WHERE c.window_start IS NULL ORDER BY name;";

  @Test
  void checkReturnsResultColumnsOfAJoin() {
    assertEquals(
        List.of(
            new DuckDbTransform.ResultColumn("name", "VARCHAR"),
            new DuckDbTransform.ResultColumn("clicks", "BIGINT"),
            new DuckDbTransform.ResultColumn("steps", "BIGINT")),
        DuckDbTransform.check(JOIN, schemas));
  }

  @Test
  void checkReportsUnknownColumnAndTableWithDuckDbsMessage() {
    TransformSqlException e =
        assertThrows(
            TransformSqlException.class,
            () -> DuckDbTransform.check("SELECT nope FROM app1.clicks", schemas));
    assertTrue(
        e.getMessage()
            .startsWith(
                "TRANSFORM SQL refused by DuckDB: Binder Error: Referenced column \"nope\" not"
                    + " found in FROM clause!"),
        e.getMessage());
    e =
        assertThrows(
            TransformSqlException.class,
            () -> DuckDbTransform.check("SELECT * FROM app1.views", schemas));
    assertTrue(
        e.getMessage()
            .startsWith(
                "TRANSFORM SQL refused by DuckDB: Catalog Error: Table with name views does not"
                    + " exist!"),
        e.getMessage());
    e = assertThrows(TransformSqlException.class, () -> DuckDbTransform.check("SELEC 1", schemas));
    assertTrue(e.getMessage().contains("Parser Error"), e.getMessage());
  }

  @Test
  void checkRefusesStatementsOtherThanOneSelect() {
    TransformSqlException e =
        assertThrows(
            TransformSqlException.class,
            () -> DuckDbTransform.check("DELETE FROM app1.clicks", schemas));
    assertEquals(
        "TRANSFORM SQL must be a single SELECT query (WITH, UNION and VALUES are fine); DuckDB"
            + " says: Only SELECT statements can be serialized to json!",
        e.getMessage());
    e =
        assertThrows(
            TransformSqlException.class,
            () -> DuckDbTransform.check("SELECT 1; SELECT 2", schemas));
    assertEquals(
        "TRANSFORM SQL must be exactly one SELECT query, but it holds 2 statements; remove the"
            + " extra ';'-separated statements",
        e.getMessage());
    assertThrows(TransformSqlException.class, () -> DuckDbTransform.check("  ", schemas));
  }

  @Test
  void runJoinsTwoStatesAndWritesParquetReadableByDuckDbAndParquetHadoop() throws Exception {
    String out =
        Path.of(URI.create(new LakeLayout(dir.resolve("lake").toString()).transformFile("t", V)))
            .toString();
    DuckDbTransform.Result result = DuckDbTransform.run(JOIN, files, out, V);
    assertEquals(2, result.rowCount());
    assertEquals("version", result.columns().get(3).name());
    assertTrue(Files.exists(Path.of(out)));

    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT name, clicks, steps, version = TIMESTAMPTZ '2026-12-02 13:00:00+00'"
                    + " FROM read_parquet(?) ORDER BY name")) {
      ps.setString(1, out);
      List<String> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              rs.getString(1) + "," + rs.getLong(2) + "," + rs.getLong(3) + "," + rs.getBoolean(4));
        }
      }
      assertEquals(List.of("alice,3,1000,true", "bob,5,20,true"), rows);
    }

    List<String> rows = new ArrayList<>();
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(out))
            .withConf(HadoopFs.defaultConfiguration())
            .build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        rows.add(
            g.getString("name", 0) + "," + g.getLong("clicks", 0) + "," + g.getLong("steps", 0));
      }
    }
    assertEquals(List.of("alice,3,1000", "bob,5,20"), rows);
  }

  @Test
  void runAggregatesAcrossFilesAndWindows() throws Exception {
    String out = dir.resolve("agg/part-0.parquet").toString();
    DuckDbTransform.Result result =
        DuckDbTransform.run(
            "SELECT key, sum(value) AS total, count(*) AS cells, max(version) AS version"
                + " FROM app1.clicks GROUP BY key ORDER BY key -- trailing comment",
            files,
            out,
            V);
    assertEquals(3, result.rowCount());
    assertEquals(4, result.columns().size(), "query's own version column is kept, none appended");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement ps =
            c.prepareStatement("SELECT key, total, cells FROM read_parquet(?) ORDER BY key")) {
      ps.setString(1, out);
      List<String> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(rs.getString(1) + "=" + rs.getLong(2) + "/" + rs.getLong(3));
        }
      }
      assertEquals(List.of("alice=5/2", "bob=5/1", "carol=1/1"), rows);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM read_parquet('SECRET')",
        "SELECT * FROM read_csv('SECRET_CSV')",
        "SELECT * FROM 'SECRET'",
        "SELECT content FROM read_text('/etc/hostname')",
        "SELECT * FROM glob('DIR/*')",
        "SELECT c.* FROM app1.clicks c UNION ALL SELECT * FROM read_parquet('SECRET')"
      })
  void runRefusesReadingAnythingButTheVersionTables(String template) {
    String sql =
        template
            .replace("SECRET_CSV", dir.resolve("secret.csv").toString())
            .replace("SECRET", secretFile)
            .replace("DIR", dir.toString());
    String out = dir.resolve("escape/part-0.parquet").toString();
    TransformSqlException e =
        assertThrows(TransformSqlException.class, () -> DuckDbTransform.run(sql, files, out, V));
    assertTrue(
        e.getMessage()
            .startsWith(
                "TRANSFORM SQL may read only the version's tables (app.state); it tried to reach"
                    + " files, databases or extensions outside them. DuckDB refused: Permission"
                    + " Error: Cannot access file"),
        e.getMessage());
    assertFalse(Files.exists(Path.of(out)));
    // The same SQL is already refused at CREATE.
    assertThrows(TransformSqlException.class, () -> DuckDbTransform.check(sql, schemas));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "COPY app1.clicks TO 'OUT'",
        "ATTACH 'DIR/other.db' AS other",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET enable_external_access = true",
        "SELECT 1; COPY app1.clicks TO 'OUT'",
        "SELECT 1) TO 'OUT'; SELECT (1"
      })
  void runRefusesCopyAttachAndSettings(String template) {
    String target = dir.resolve("stolen.csv").toString();
    String sql = template.replace("OUT", target).replace("DIR", dir.toString());
    String out = dir.resolve("escape/part-0.parquet").toString();
    TransformSqlException e =
        assertThrows(TransformSqlException.class, () -> DuckDbTransform.run(sql, files, out, V));
    assertTrue(e.getMessage().startsWith("TRANSFORM SQL"), e.getMessage());
    assertFalse(Files.exists(Path.of(target)));
    assertFalse(Files.exists(dir.resolve("other.db")));
  }

  @Test
  void runNeedsAFilePerTable() {
    Map<String, List<String>> missing = new LinkedHashMap<>(files);
    missing.put("app3.views", List.of());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> DuckDbTransform.run("SELECT 1", missing, dir.resolve("x.parquet").toString(), V));
    assertEquals(
        "Table app3.views has no Parquet file; pass at least one (an empty state still has a"
            + " row-less file with its schema)",
        e.getMessage());
  }
}
