package io.arcon.tss.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.Values;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParquetVersionWriterTest {
  @TempDir Path dir;

  private final ParquetVersionWriter writer = new ParquetVersionWriter();
  private final ParquetVersionReader reader = new ParquetVersionReader();

  @Test
  void nestedRowsRoundTripThroughParquetHadoopReader() {
    String file = dir.resolve("v/app/state/part-00000.parquet").toString();
    PartFile written =
        writer.writeVersion(file, Fixtures.SCHEMA, Fixtures.rows(), Fixtures.VERSION);
    assertEquals(4, written.rowCount());
    assertTrue(written.path().startsWith("file:"), written.path());

    ParquetVersionReader.VersionFile back = reader.read(file);
    assertEquals(Fixtures.SCHEMA, back.schema());
    assertEquals(Fixtures.VERSION, back.version());
    assertFalse(back.diff());
    assertRowsEqual(Fixtures.rows(), back.rows());
  }

  @Test
  void duckDbReadsRealNestedColumns() throws SQLException {
    String file = dir.resolve("part-00000.parquet").toString();
    writer.writeVersion(file, Fixtures.SCHEMA, Fixtures.rows(), Fixtures.VERSION);
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
      Map<String, String> types = new java.util.LinkedHashMap<>();
      try (PreparedStatement ps = c.prepareStatement("DESCRIBE SELECT * FROM read_parquet(?)")) {
        ps.setString(1, file);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            types.put(rs.getString(1), rs.getString(2));
          }
        }
      }
      assertEquals("VARCHAR", types.get("key"));
      assertEquals("TIMESTAMP WITH TIME ZONE", types.get("window_start"));
      assertEquals("TIMESTAMP WITH TIME ZONE", types.get("updated_at"));
      assertEquals("TIMESTAMP WITH TIME ZONE", types.get("version"));
      assertEquals(
          "STRUCT(\"name\" VARCHAR, count BIGINT, small INTEGER, ratio DOUBLE, f FLOAT, flag"
              + " BOOLEAN, raw BLOB, seen TIMESTAMP WITH TIME ZONE, tags VARCHAR[], scores"
              + " MAP(VARCHAR, BIGINT), nested STRUCT(a INTEGER, items STRUCT(x BIGINT)[]), blob"
              + " STRUCT(bytes BLOB, readable VARCHAR))",
          types.get("value"));

      String sql =
          "SELECT key, value.name, value.count, value.small, value.ratio, value.f, value.flag,"
              + " decode(value.raw), epoch_us(value.seen), len(value.tags), value.tags[2],"
              + " value.scores['y'], value.nested.a, value.nested.items[1].x,"
              + " value.blob.readable, octet_length(value.blob.bytes), epoch_us(window_start),"
              + " epoch_us(window_end), epoch_us(updated_at), epoch_us(version), value IS NULL"
              + " FROM read_parquet(?) ORDER BY key";
      List<List<Object>> got = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setString(1, file);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= 21; i++) {
              row.add(rs.getObject(i));
            }
            got.add(row);
          }
        }
      }
      assertEquals(4, got.size());
      assertEquals(
          List.of(
              "alice",
              "Alice",
              10L,
              10,
              2.5,
              5.0f,
              true,
              "raw10",
              1_700_000_010_123_456L,
              2L,
              "b",
              2L,
              7,
              1L,
              "Opaque(alice)",
              3L),
          got.get(0).subList(0, 16));
      assertEquals(java.util.Arrays.asList(null, null), got.get(0).subList(16, 18));
      assertEquals(Micros.of(Instant.parse("2026-12-02T12:59:59.999999Z")), got.get(0).get(18));
      assertEquals(Micros.of(Fixtures.VERSION), got.get(0).get(19));
      // bob: empty list and map, nested null field, list holding a null row, empty opaque bytes.
      List<Object> bob = got.get(1);
      assertEquals(0L, bob.get(9));
      assertEquals(null, bob.get(11));
      assertEquals(null, bob.get(12));
      assertEquals(3L, bob.get(13));
      assertEquals(null, bob.get(14));
      assertEquals(0L, bob.get(15));
      assertEquals(Micros.of(Instant.parse("2026-12-02T12:00:00Z")), bob.get(16));
      assertEquals(Micros.of(Instant.parse("2026-12-02T12:05:00Z")), bob.get(17));
      // carol: null count, a list with a null element.
      List<Object> carol = got.get(2);
      assertEquals(null, carol.get(2));
      assertEquals(null, carol.get(10));
      assertEquals(2L, carol.get(9));
      assertEquals(true, got.get(3).get(20));
    }
  }

  @ParameterizedTest
  @EnumSource(PrimitiveType.class)
  void everyPrimitiveRoundTripsAsKeyValueListAndMap(PrimitiveType type) throws SQLException {
    Object a = sample(type, 1);
    Object b = sample(type, 2);
    FieldType valueType = new MapType(FieldType.STRING, new ListType(type));
    StateSchema schema = new StateSchema(type, valueType);
    List<StateRow> rows =
        List.of(
            new StateRow(a, null, Map.of("k", java.util.Arrays.asList(a, null, b)), Instant.EPOCH),
            new StateRow(b, null, Map.of(), Instant.EPOCH));
    String file = dir.resolve(type + ".parquet").toString();
    writer.writeVersion(file, schema, rows, Fixtures.VERSION);
    assertRowsEqual(rows, reader.read(file).rows());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*), count(DISTINCT key), sum(len(value['k'])) FROM read_parquet(?)")) {
      ps.setString(1, file);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(2L, rs.getLong(1));
        assertEquals(2L, rs.getLong(2));
        assertEquals(3L, rs.getLong(3));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodecName.class,
      names = {"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD"})
  void codecsWorkWithoutHadoopNativeLibraries(CompressionCodecName codec) throws SQLException {
    String file = dir.resolve(codec + ".parquet").toString();
    new ParquetVersionWriter(HadoopFs.defaultConfiguration(), codec)
        .writeVersion(file, Fixtures.SCHEMA, Fixtures.rows(), Fixtures.VERSION);
    assertRowsEqual(Fixtures.rows(), reader.read(file).rows());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT compression FROM parquet_metadata(?) WHERE path_in_schema = 'key'")) {
      ps.setString(1, file);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(codec.name(), rs.getString(1));
      }
    }
  }

  @Test
  void emptyVersionStillWritesSchemaAndNoTempOrCrcFilesRemain() throws Exception {
    String file = dir.resolve("empty/part-00000.parquet").toString();
    assertEquals(
        0, writer.writeVersion(file, Fixtures.SCHEMA, List.of(), Fixtures.VERSION).rowCount());
    assertEquals(Fixtures.SCHEMA, reader.read(file).schema());
    try (Stream<Path> files = Files.list(dir.resolve("empty"))) {
      assertEquals(
          List.of("part-00000.parquet"), files.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void rewriteReplacesTheFileAtomically() {
    String file = dir.resolve("part-00000.parquet").toString();
    writer.writeVersion(file, Fixtures.SCHEMA, Fixtures.rows(), Fixtures.VERSION);
    writer.writeVersion(file, Fixtures.SCHEMA, Fixtures.rows().subList(0, 1), Fixtures.VERSION);
    assertEquals(1, reader.read(file).rows().size());
  }

  @Test
  void layoutPathWithColonsInVersionWorks() {
    LakeLayout lake = new LakeLayout(dir.resolve("lake").toString());
    String file = lake.stateFile("my_tss", Fixtures.VERSION, "app1", "Count.count");
    assertEquals(
        lake.root() + "/my_tss/version=2026-12-02T13:00:00Z/app1/Count.count/part-0.parquet", file);
    writer.writeVersion(file, Fixtures.SCHEMA, Fixtures.rows(), Fixtures.VERSION);
    assertTrue(Files.exists(Path.of(URI.create(file))));
    assertEquals(4, reader.read(file).rows().size());
  }

  @Test
  void valueNotFittingTheSchemaIsRefusedAndNoFileAppears() {
    String file = dir.resolve("bad/part-00000.parquet").toString();
    List<StateRow> rows =
        List.of(
            Fixtures.rows().get(0),
            new StateRow("eve", null, List.of("only one field"), Instant.EPOCH));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> writer.writeVersion(file, Fixtures.SCHEMA, rows, Fixtures.VERSION));
    assertTrue(
        e.getMessage().contains("Row 1 of ")
            && e.getMessage()
                .contains("value has 1 field values but its type ROW<name STRING NOT NULL"),
        e.getMessage());
    assertFalse(Files.exists(Path.of(file)));
  }

  static Object sample(PrimitiveType type, int i) {
    return switch (type) {
      case STRING -> "s" + i;
      case INT32 -> i;
      case INT64 -> (long) i << 40;
      case FLOAT -> i + 0.5f;
      case DOUBLE -> i + 0.25;
      case BOOLEAN -> i % 2 == 0;
      case BYTES -> ("b" + i).getBytes(StandardCharsets.UTF_8);
      case TIMESTAMP -> Instant.parse("2026-01-01T00:00:00.000001Z").plusSeconds(i);
    };
  }

  static void assertRowsEqual(List<StateRow> expected, List<StateRow> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      StateRow e = expected.get(i);
      StateRow a = actual.get(i);
      assertTrue(Values.deepEquals(e.key(), a.key()), "key of row " + i);
      assertEquals(e.window(), a.window(), "window of row " + i);
      assertTrue(
          Values.deepEquals(e.value(), a.value()),
          "value of row " + i + ": expected " + e.value() + " got " + a.value());
      assertEquals(e.updatedAt(), a.updatedAt(), "updated_at of row " + i);
    }
  }

  @Test
  void opaqueBytesAreKeptExactly() {
    byte[] bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    StateSchema schema = new StateSchema(FieldType.OPAQUE, FieldType.OPAQUE);
    String file = dir.resolve("opaque.parquet").toString();
    writer.writeVersion(
        file,
        schema,
        List.of(
            new StateRow(
                new OpaqueValue(bytes, "k"), null, new OpaqueValue(bytes, null), Instant.EPOCH)),
        Fixtures.VERSION);
    StateRow back = reader.read(file).rows().get(0);
    assertArrayEquals(bytes, ((OpaqueValue) back.key()).bytes());
    assertEquals(null, ((OpaqueValue) back.value()).readable());
  }

  @Test
  void unknownFileSystemSchemeNamesTheMissingConnector() {
    java.io.UncheckedIOException e =
        assertThrows(
            java.io.UncheckedIOException.class,
            () ->
                writer.writeVersion(
                    "s3a://bucket/lake/t/part-00000.parquet",
                    Fixtures.SCHEMA,
                    Fixtures.rows(),
                    Fixtures.VERSION));
    assertEquals(
        "Cannot open the file system of 's3a://bucket/lake/t/part-00000.parquet' (scheme s3a):"
            + " Class org.apache.hadoop.fs.s3a.S3AFileSystem not found; for s3a:// and similar,"
            + " put the Hadoop connector jar (e.g. hadoop-aws) on the class path",
        e.getMessage());
  }
}
