package io.arcon.tss.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldTypeTest {

  private static final RowType NESTED =
      RowType.of(
          Field.required("name", FieldType.STRING),
          Field.of("n", FieldType.INT64),
          Field.of("tags", new ListType(FieldType.STRING)),
          Field.of("scores", new MapType(FieldType.STRING, FieldType.DOUBLE)),
          Field.of("odd name`x", FieldType.OPAQUE),
          Field.of("inner", RowType.of(Field.of("at", FieldType.TIMESTAMP))));

  @Test
  void toStringRendersCompactNotation() {
    assertEquals("LIST<INT32>", new ListType(FieldType.INT32).toString());
    assertEquals("MAP<STRING, BYTES>", new MapType(FieldType.STRING, FieldType.BYTES).toString());
    assertEquals(
        "ROW<name STRING NOT NULL, n INT64, tags LIST<STRING>, scores MAP<STRING, DOUBLE>,"
            + " `odd name``x` OPAQUE, inner ROW<at TIMESTAMP>>",
        NESTED.toString());
  }

  @Test
  void parseReadsBackEveryType() {
    for (FieldType t :
        List.<FieldType>of(
            FieldType.STRING,
            FieldType.INT32,
            FieldType.INT64,
            FieldType.FLOAT,
            FieldType.DOUBLE,
            FieldType.BOOLEAN,
            FieldType.BYTES,
            FieldType.TIMESTAMP,
            FieldType.OPAQUE,
            new ListType(new MapType(FieldType.INT32, new ListType(FieldType.BOOLEAN))),
            NESTED)) {
      assertEquals(t, FieldType.parse(t.toString()), t.toString());
    }
    assertEquals(
        RowType.of(Field.required("a", FieldType.INT32)),
        FieldType.parse(" row < a int32 not null > "));
  }

  @Test
  void parseReportsPositionAndExpectation() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FieldType.parse("LIST<INT65>"));
    assertEquals(
        "Invalid type 'LIST<INT65>' at position 6: expected a type (STRING, INT32, INT64, FLOAT,"
            + " DOUBLE, BOOLEAN, BYTES, TIMESTAMP, OPAQUE, LIST<..>, MAP<..,..>, ROW<..>) but"
            + " found 'INT65>'",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> FieldType.parse("MAP<STRING INT32>"));
    assertEquals(
        "Invalid type 'MAP<STRING INT32>' at position 12: expected ',' but found 'INT32>'",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> FieldType.parse("INT32 extra"));
    assertThrows(IllegalArgumentException.class, () -> FieldType.parse("ROW<>"));
  }

  @Test
  void checkNamesThePositionOfABadValue() {
    List<Object> good =
        List.of(
            "a",
            1L,
            List.of("x"),
            Map.of("s", 1.0),
            new OpaqueValue(new byte[] {1}, "1"),
            List.of(Instant.EPOCH));
    Values.check(NESTED, good, false, "value");
    List<Object> bad =
        List.of(
            "a",
            1L,
            List.of("x"),
            Map.of("s", 1),
            new OpaqueValue(new byte[] {1}, "1"),
            List.of(Instant.EPOCH));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Values.check(NESTED, bad, false, "value"));
    assertEquals(
        "value.scores[s] has type DOUBLE so its Java value must be a Double, but it is a"
            + " java.lang.Integer",
        e.getMessage());
    java.util.ArrayList<Object> nullName = new java.util.ArrayList<>(good);
    nullName.set(0, null);
    e =
        assertThrows(
            IllegalArgumentException.class, () -> Values.check(NESTED, nullName, true, "v"));
    assertEquals("v.name is null but its type STRING is NOT NULL", e.getMessage());
  }

  @Test
  void deepEqualsComparesBytesAndMapsByContent() {
    Map<Object, Object> m1 = new LinkedHashMap<>();
    m1.put(new byte[] {1, 2}, List.of(new byte[] {3}));
    m1.put(new byte[] {4}, null);
    Map<Object, Object> m2 = new LinkedHashMap<>();
    m2.put(new byte[] {4}, null);
    m2.put(new byte[] {1, 2}, List.of(new byte[] {3}));
    assertTrue(Values.deepEquals(m1, m2));
    assertEquals(Values.deepHashCode(m1), Values.deepHashCode(m2));
    Map<Object, Object> m3 = new LinkedHashMap<>();
    m3.put(new byte[] {4}, null);
    m3.put(new byte[] {1, 2}, List.of(new byte[] {9}));
    assertFalse(Values.deepEquals(m1, m3));
    assertTrue(
        Values.deepEquals(
            new OpaqueValue(new byte[] {7}, "7"), new OpaqueValue(new byte[] {7}, "7")));
  }
}
