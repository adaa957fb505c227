package io.arcon.runner.tss.catalog;

import static io.arcon.runner.tss.catalog.CoderTypesTest.assertModel;
import static io.arcon.runner.tss.catalog.CoderTypesTest.convert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.RowType;
import io.arcon.tss.model.StateRow;
import io.arcon.tss.model.StateSchema;
import io.arcon.tss.model.Values;
import io.arcon.tss.write.ParquetVersionReader;
import io.arcon.tss.write.ParquetVersionWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.JavaFieldSchema;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.SchemaCoder;
import org.apache.beam.sdk.schemas.SchemaRegistry;
import org.apache.beam.sdk.schemas.annotations.DefaultSchema;
import org.apache.beam.sdk.schemas.logicaltypes.EnumerationType;
import org.apache.beam.sdk.values.Row;
import org.joda.time.DateTime;
import org.joda.time.DateTimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Beam schema rows (RowCoder, @DefaultSchema POJOs) become nested ROW columns. */
class SchemaTypesTest {

  /** A POJO whose coder is a SchemaCoder, with nested list, map and row fields. */
  @DefaultSchema(JavaFieldSchema.class)
  public static class Profile {
    public String name;
    public List<String> tags;
    public Map<String, Long> visits;
    public Address home;

    public Profile() {}

    Profile(String name, List<String> tags, Map<String, Long> visits, Address home) {
      this.name = name;
      this.tags = tags;
      this.visits = visits;
      this.home = home;
    }
  }

  @DefaultSchema(JavaFieldSchema.class)
  public static class Address {
    public String city;
    public int zip;

    public Address() {}

    Address(String city, int zip) {
      this.city = city;
      this.zip = zip;
    }
  }

  static Profile profile() {
    Map<String, Long> visits = new LinkedHashMap<>();
    visits.put("home", 3L);
    visits.put("cart", 1L);
    return new Profile("ada", List.of("new", "vip"), visits, new Address("Lund", 22100));
  }

  /** The model value of {@link #profile()} for field {@code name}, written from the POJO. */
  static Object expectedProfileField(String name) {
    Profile p = profile();
    return switch (name) {
      case "name" -> p.name;
      case "tags" -> p.tags;
      case "visits" -> p.visits;
      case "home" -> Map.of("city", "Lund", "zip", 22100);
      default -> throw new AssertionError("unexpected field " + name);
    };
  }

  @Test
  void aDefaultSchemaPojoIsANestedRowWithItsListAndMapFields() throws Exception {
    SchemaCoder<Profile> coder = SchemaRegistry.createDefault().getSchemaCoder(Profile.class);
    CoderMapping mapping = CoderTypes.of(coder);
    RowType type = assertInstanceOf(RowType.class, mapping.type());

    // Field order is Beam's choice; check every field by name.
    Map<String, FieldType> expectedTypes =
        Map.of(
            "name", FieldType.STRING,
            "tags", FieldType.parse("LIST<STRING>"),
            "visits", FieldType.parse("MAP<STRING, INT64>"),
            "home", FieldType.parse("ROW<city STRING NOT NULL, zip INT32 NOT NULL>"));
    assertEquals(expectedTypes.size(), type.fields().size());
    Map<String, Object> byName = new HashMap<>();
    List<?> model = (List<?>) convert(mapping, profile());
    for (int i = 0; i < type.fields().size(); i++) {
      Field f = type.fields().get(i);
      byName.put(f.name(), model.get(i));
      if (!f.name().equals("home")) {
        assertEquals(expectedTypes.get(f.name()), f.type(), f.name());
      }
    }
    // The nested row's own field order is Beam's too: compare it by name as well.
    RowType home =
        (RowType)
            type.fields().stream()
                .filter(f -> f.name().equals("home"))
                .findFirst()
                .orElseThrow()
                .type();
    Map<String, Object> homeValues = new HashMap<>();
    List<?> homeModel = (List<?>) byName.get("home");
    for (int i = 0; i < home.fields().size(); i++) {
      homeValues.put(home.fields().get(i).name(), homeModel.get(i));
    }
    assertEquals(expectedProfileField("home"), homeValues);
    for (String name : List.of("name", "tags", "visits")) {
      assertModel(expectedProfileField(name), byName.get(name));
    }
  }

  @Test
  void rowCoderMapsEverySchemaType() throws Exception {
    EnumerationType color = EnumerationType.create("RED", "GREEN", "BLUE");
    Schema point = Schema.builder().addInt32Field("x").addInt32Field("y").build();
    Schema schema =
        Schema.builder()
            .addByteField("b")
            .addInt16Field("s")
            .addInt32Field("i")
            .addInt64Field("l")
            .addFloatField("f")
            .addDoubleField("d")
            .addStringField("str")
            .addBooleanField("bool")
            .addByteArrayField("bytes")
            .addDateTimeField("at")
            .addDecimalField("price")
            .addDecimalField("thousand")
            .addArrayField("xs", Schema.FieldType.INT64)
            .addIterableField("it", Schema.FieldType.STRING)
            .addMapField(
                "m", Schema.FieldType.STRING, Schema.FieldType.array(Schema.FieldType.INT64))
            .addRowField("p", point)
            .addNullableField("maybe", Schema.FieldType.STRING)
            .addLogicalTypeField("color", color)
            .addArrayField("colors", Schema.FieldType.logicalType(color))
            .build();
    Row row =
        Row.withSchema(schema)
            .addValues(
                (byte) -3,
                (short) 300,
                7,
                8L,
                1.25f,
                2.5,
                "s",
                true,
                new byte[] {9, 8},
                new DateTime(1_764_680_400_000L, DateTimeZone.UTC),
                new BigDecimal("12345678901234567890.000000001"),
                new BigDecimal("1E+3"),
                List.of(1L, 2L),
                List.of("a"),
                Map.of("k", List.of(5L)),
                Row.withSchema(point).addValues(1, 2).build(),
                null,
                color.valueOf("GREEN"),
                List.of(color.valueOf("BLUE"), color.valueOf("RED")))
            .build();

    CoderMapping mapping = CoderTypes.of(RowCoder.of(schema));
    assertEquals(
        FieldType.parse(
            "ROW<b INT32 NOT NULL, s INT32 NOT NULL, i INT32 NOT NULL, l INT64 NOT NULL,"
                + " f FLOAT NOT NULL, d DOUBLE NOT NULL, str STRING NOT NULL,"
                + " bool BOOLEAN NOT NULL, bytes BYTES NOT NULL, at TIMESTAMP NOT NULL,"
                + " price STRING NOT NULL, thousand STRING NOT NULL, xs LIST<INT64> NOT NULL, it LIST<STRING> NOT NULL,"
                + " m MAP<STRING, LIST<INT64>> NOT NULL,"
                + " p ROW<x INT32 NOT NULL, y INT32 NOT NULL> NOT NULL, maybe STRING,"
                + " color INT32 NOT NULL, colors LIST<INT32> NOT NULL>"),
        mapping.type());
    List<Object> expected =
        Arrays.asList(
            -3,
            300,
            7,
            8L,
            1.25f,
            2.5,
            "s",
            true,
            new byte[] {9, 8},
            Instant.parse("2025-12-02T13:00:00Z"),
            "12345678901234567890.000000001",
            "1000", // plain notation, not 1E+3
            List.of(1L, 2L),
            List.of("a"),
            Map.of("k", List.of(5L)),
            List.of(1, 2),
            null,
            1, // GREEN's ordinal: an enumeration's base type is INT32
            List.of(2, 0));
    assertModel(expected, convert(mapping, row));
  }

  @Test
  void fieldNamesThatAreNotIdentifiersAreKeptAndWritten(@TempDir Path dir) throws Exception {
    Schema schema =
        Schema.builder()
            .addStringField("user name")
            .addInt64Field("a.b")
            .addMapField("per-page", Schema.FieldType.STRING, Schema.FieldType.INT32)
            .build();
    CoderMapping mapping = CoderTypes.of(RowCoder.of(schema));
    assertEquals(
        FieldType.parse(
            "ROW<`user name` STRING NOT NULL, `a.b` INT64 NOT NULL,"
                + " `per-page` MAP<STRING, INT32> NOT NULL>"),
        mapping.type());
    Row row = Row.withSchema(schema).addValues("ada", 5L, Map.of("/", 2)).build();
    Object value = convert(mapping, row);
    assertModel(List.of("ada", 5L, Map.of("/", 2)), value);

    List<StateRow> read = writeAndRead(dir, mapping.type(), value);
    assertModel(value, read.get(0).value());
  }

  @Test
  void aPojoValueSurvivesTheParquetWriter(@TempDir Path dir) throws Exception {
    CoderMapping mapping =
        CoderTypes.of(SchemaRegistry.createDefault().getSchemaCoder(Profile.class));
    Object value = convert(mapping, profile());
    List<StateRow> read = writeAndRead(dir, mapping.type(), value);
    assertEquals(1, read.size());
    assertModel(value, read.get(0).value());
  }

  /** Writes one row with key "k" and {@code value} as a TSS version file and reads it back. */
  static List<StateRow> writeAndRead(Path dir, FieldType valueType, Object value) {
    StateSchema schema = new StateSchema(FieldType.STRING, valueType);
    Instant version = Instant.parse("2026-01-01T00:00:00Z");
    List<StateRow> rows = new ArrayList<>();
    rows.add(new StateRow("k", null, value, version.minusSeconds(1)));
    String file = dir.resolve("part-0.parquet").toString();
    new ParquetVersionWriter().writeVersion(file, schema, rows, version);
    var read = new ParquetVersionReader().read(file);
    assertEquals(schema, read.schema());
    Values.check(valueType, read.rows().get(0).value(), true, "read back");
    return read.rows();
  }
}
