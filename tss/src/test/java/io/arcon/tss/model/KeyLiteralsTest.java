package io.arcon.tss.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class KeyLiteralsTest {

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
}
