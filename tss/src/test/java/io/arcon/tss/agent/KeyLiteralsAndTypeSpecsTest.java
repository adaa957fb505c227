package io.arcon.tss.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.model.Field;
import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.ListType;
import io.arcon.tss.model.MapType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.RowType;
import io.arcon.tss.proto.TypeSpec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyLiteralsAndTypeSpecsTest {

  @Test
  void keyLiteralsParseToTheKeyTypesJavaValue() {
    assertEquals("alice", KeyLiterals.parse(FieldType.STRING, "alice"));
    assertEquals(42, KeyLiterals.parse(FieldType.INT32, "42"));
    assertEquals(-7L, KeyLiterals.parse(FieldType.INT64, " -7 "));
    assertEquals(1.5, KeyLiterals.parse(FieldType.DOUBLE, "1.5"));
    assertEquals(Boolean.TRUE, KeyLiterals.parse(FieldType.BOOLEAN, "TRUE"));
    assertEquals(
        Instant.parse("2026-12-02T13:00:00Z"),
        KeyLiterals.parse(FieldType.TIMESTAMP, "2026-12-02T13:00:00Z"));
    assertArrayEquals(
        "k1".getBytes(StandardCharsets.UTF_8), (byte[]) KeyLiterals.parse(FieldType.BYTES, "k1"));
  }

  @Test
  void keyLiteralsThatDoNotFitSayWhatWouldFit() {
    assertEquals(
        "key 'abc' is not a valid INT64 (give an integer such as '42')",
        assertThrows(
                IllegalArgumentException.class, () -> KeyLiterals.parse(FieldType.INT64, "abc"))
            .getMessage());
    assertEquals(
        "key '3000000000' is not a valid INT32 (give an integer such as '42')",
        assertThrows(
                IllegalArgumentException.class,
                () -> KeyLiterals.parse(FieldType.INT32, "3000000000"))
            .getMessage());
    assertEquals(
        "key 'yes' is not a valid BOOLEAN (give 'true' or 'false')",
        assertThrows(
                IllegalArgumentException.class, () -> KeyLiterals.parse(FieldType.BOOLEAN, "yes"))
            .getMessage());
    assertEquals(
        "ON KEY needs a key of a primitive type, but the key type is LIST<STRING>",
        assertThrows(
                IllegalArgumentException.class,
                () -> KeyLiterals.parse(new ListType(FieldType.STRING), "x"))
            .getMessage());
  }

  @Test
  void filtersMatchByContent() {
    Object bytes = KeyLiterals.parse(FieldType.BYTES, "k1");
    assertTrue(KeyLiterals.matches(bytes, "k1".getBytes(StandardCharsets.UTF_8)));
    assertFalse(KeyLiterals.matches(bytes, "k2".getBytes(StandardCharsets.UTF_8)));
    Object opaque = KeyLiterals.parse(FieldType.OPAQUE, "User{id=1}");
    assertTrue(KeyLiterals.matches(opaque, new OpaqueValue(new byte[] {1}, "User{id=1}")));
    assertFalse(KeyLiterals.matches(opaque, new OpaqueValue(new byte[] {2}, "User{id=2}")));
    assertFalse(KeyLiterals.matches(KeyLiterals.parse(FieldType.INT64, "1"), 1));
  }

  @Test
  void everyFieldTypeSurvivesTheProtobufMirror() {
    FieldType nested =
        new RowType(
            List.of(
                new Field("name", FieldType.STRING, false),
                new Field("tags", new ListType(FieldType.STRING), true),
                new Field("scores", new MapType(FieldType.STRING, FieldType.DOUBLE), true),
                new Field(
                    "inner",
                    new RowType(List.of(new Field("at", FieldType.TIMESTAMP, true))),
                    true),
                new Field("blob", FieldType.BYTES, true),
                new Field("custom", FieldType.OPAQUE, true),
                new Field("n", FieldType.INT32, false),
                new Field("f", FieldType.FLOAT, false),
                new Field("b", FieldType.BOOLEAN, false),
                new Field("l", FieldType.INT64, false)));
    assertEquals(nested, TypeSpecs.fromProto(TypeSpecs.toProto(nested)));
    assertEquals(nested.toString(), TypeSpecs.fromProto(TypeSpecs.toProto(nested)).toString());
  }

  @Test
  void anEmptyTypeSpecIsRefused() {
    assertEquals(
        "type spec is empty: set one of primitive, row, list, map, opaque",
        assertThrows(
                IllegalArgumentException.class,
                () -> TypeSpecs.fromProto(TypeSpec.getDefaultInstance()))
            .getMessage());
  }
}
