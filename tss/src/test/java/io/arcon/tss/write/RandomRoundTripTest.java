package io.arcon.tss.write;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.PrimitiveType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.WindowBounds;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random schemas (nested up to depth 3) and rows, written as Parquet and as Arrow and read
 * back: both must reproduce the rows exactly.
 */
class RandomRoundTripTest {
  @TempDir Path dir;

  private static final long SEED = 20261202L;

  @Test
  void randomNestedSchemasRoundTripThroughParquetAndArrow() throws Exception {
    Random random = new Random(SEED);
    for (int s = 0; s < 20; s++) {
      StateSchema schema = new StateSchema(randomType(random, 1), randomType(random, 0));
      List<StateRow> rows = new ArrayList<>();
      int n = 1 + random.nextInt(300);
      for (int i = 0; i < n; i++) {
        Instant start = randomInstant(random);
        WindowBounds window =
            random.nextBoolean() ? null : new WindowBounds(start, start.plusSeconds(60));
        rows.add(
            new StateRow(
                randomValue(random, schema.keyType(), true),
                window,
                randomValue(random, schema.valueType(), true),
                randomInstant(random)));
      }
      String file = dir.resolve("s" + s + ".parquet").toString();
      new ParquetVersionWriter().writeVersion(file, schema, rows, Fixtures.VERSION);
      ParquetVersionReader.VersionFile back = new ParquetVersionReader().read(file);
      org.junit.jupiter.api.Assertions.assertEquals(schema, back.schema(), "schema " + s);
      ParquetVersionWriterTest.assertRowsEqual(rows, back.rows());
      assertDuckDbReadsEveryCell(file, rows);

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new ArrowVersionWriter(64).writeVersion(out, schema, rows, Fixtures.VERSION);
      ParquetVersionWriterTest.assertRowsEqual(
          rows, ArrowVersionWriterTest.read(out.toByteArray(), schema).rows());
    }
  }

  /** DuckDB must decode every nested column: count non-null keys and values per file. */
  private static void assertDuckDbReadsEveryCell(String file, List<StateRow> rows)
      throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*), count(key), count(value), count(window_start),"
                    + " sum(length(CAST(value AS VARCHAR))) FROM read_parquet(?)")) {
      ps.setString(1, file);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        rs.next();
        org.junit.jupiter.api.Assertions.assertEquals(rows.size(), rs.getLong(1));
        org.junit.jupiter.api.Assertions.assertEquals(
            rows.stream().filter(r -> r.key() != null).count(), rs.getLong(2));
        org.junit.jupiter.api.Assertions.assertEquals(
            rows.stream().filter(r -> r.value() != null).count(), rs.getLong(3));
        org.junit.jupiter.api.Assertions.assertEquals(
            rows.stream().filter(r -> r.window() != null).count(), rs.getLong(4));
      }
    }
  }

  static FieldType randomType(Random r, int depth) {
    int pick = depth >= 3 ? r.nextInt(9) : r.nextInt(12);
    if (pick < 8) {
      return PrimitiveType.values()[pick];
    }
    switch (pick) {
      case 8:
        return FieldType.OPAQUE;
      case 9:
        return new ListType(randomType(r, depth + 1));
      case 10:
        return new MapType(PrimitiveType.values()[r.nextInt(8)], randomType(r, depth + 1));
      default:
        List<Field> fields = new ArrayList<>();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
          fields.add(new Field("f" + i, randomType(r, depth + 1), r.nextBoolean()));
        }
        return new RowType(fields);
    }
  }

  static Object randomValue(Random r, FieldType type, boolean nullable) {
    if (nullable && r.nextInt(8) == 0) {
      return null;
    }
    if (type instanceof PrimitiveType p) {
      return switch (p) {
        case STRING -> randomString(r);
        case INT32 -> r.nextInt();
        case INT64 -> r.nextLong();
        case FLOAT -> r.nextFloat() * 1e6f - 5e5f;
        case DOUBLE -> r.nextGaussian() * 1e9;
        case BOOLEAN -> r.nextBoolean();
        case BYTES -> randomBytes(r);
        case TIMESTAMP -> randomInstant(r);
      };
    }
    if (type instanceof OpaqueType) {
      return new OpaqueValue(randomBytes(r), r.nextBoolean() ? randomString(r) : null);
    }
    if (type instanceof ListType l) {
      List<Object> list = new ArrayList<>();
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        list.add(randomValue(r, l.element(), true));
      }
      return list;
    }
    if (type instanceof MapType m) {
      Map<Object, Object> map = new LinkedHashMap<>();
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        // Structural keys: byte[] keys with equal content would be two entries; avoid that.
        Object key = randomValue(r, m.key(), false);
        boolean duplicate = false;
        for (Object k : map.keySet()) {
          duplicate |= io.arcon.tss.model.Values.deepEquals(k, key);
        }
        if (!duplicate) {
          map.put(key, randomValue(r, m.value(), true));
        }
      }
      return map;
    }
    RowType row = (RowType) type;
    List<Object> values = new ArrayList<>();
    for (Field f : row.fields()) {
      values.add(randomValue(r, f.type(), f.nullable()));
    }
    return values;
  }

  static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      // Mix ASCII with multi-byte code points (incl. a supplementary one) to test UTF-8 paths.
      int c = r.nextInt(4) == 0 ? (r.nextBoolean() ? 0x00e5 : 0x1F600) : 'a' + r.nextInt(26);
      sb.appendCodePoint(c);
    }
    return sb.toString();
  }

  static byte[] randomBytes(Random r) {
    byte[] b = new byte[r.nextInt(5)];
    r.nextBytes(b);
    return b;
  }

  static Instant randomInstant(Random r) {
    // Microsecond precision, the precision of every TSS timestamp column.
    return Instant.EPOCH.plus(
        r.nextLong() % 4_000_000_000_000_000L, java.time.temporal.ChronoUnit.MICROS);
  }
}
