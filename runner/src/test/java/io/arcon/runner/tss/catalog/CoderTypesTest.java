package io.arcon.runner.tss.catalog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.model.FieldType;
import io.arcon.tss.model.OpaqueType;
import io.arcon.tss.model.OpaqueValue;
import io.arcon.tss.model.Values;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.BigDecimalCoder;
import org.apache.beam.sdk.coders.BigEndianIntegerCoder;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.BigEndianShortCoder;
import org.apache.beam.sdk.coders.BigIntegerCoder;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.ByteCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CollectionCoder;
import org.apache.beam.sdk.coders.DequeCoder;
import org.apache.beam.sdk.coders.DoubleCoder;
import org.apache.beam.sdk.coders.FloatCoder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.LengthPrefixCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.SetCoder;
import org.apache.beam.sdk.coders.SortedMapCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each coder mapping: a value is encoded and decoded with its coder (as the state reader sees it),
 * converted, checked with {@link Values#check}, and compared with a model value written down here
 * from the Beam value, not from the converter.
 */
class CoderTypesTest {

  /** Encodes and decodes {@code value}: the converter sees what a state reader decodes. */
  @SuppressWarnings("unchecked")
  static Object roundTrip(Coder<?> coder, Object value) throws Exception {
    Coder<Object> c = (Coder<Object>) coder;
    return CoderUtils.decodeFromByteArray(c, CoderUtils.encodeToByteArray(c, value));
  }

  /** Converts a round-tripped value and checks it against {@code type}. */
  static Object convert(CoderMapping mapping, Object beamValue) throws Exception {
    Object model = mapping.toModel(roundTrip(mapping.coder(), beamValue));
    Values.check(mapping.type(), model, mapping.nullable(), "value");
    return model;
  }

  static void assertModel(Object expected, Object actual) {
    assertTrue(
        Values.deepEquals(expected, actual),
        "expected " + render(expected) + " got " + render(actual));
  }

  private static String render(Object v) {
    return v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v);
  }

  static Stream<Arguments> primitives() {
    byte[] bytes = {0, 1, -2, 127, -128};
    return Stream.of(
        Arguments.of(StringUtf8Coder.of(), "alice ✓", FieldType.STRING, "alice ✓"),
        Arguments.of(VarIntCoder.of(), -42, FieldType.INT32, Integer.valueOf(-42)),
        Arguments.of(
            BigEndianIntegerCoder.of(), Integer.MAX_VALUE, FieldType.INT32, Integer.MAX_VALUE),
        Arguments.of(
            BigEndianShortCoder.of(), (short) -1234, FieldType.INT32, Integer.valueOf(-1234)),
        Arguments.of(ByteCoder.of(), (byte) -56, FieldType.INT32, Integer.valueOf(-56)),
        Arguments.of(VarLongCoder.of(), 1L << 40, FieldType.INT64, Long.valueOf(1L << 40)),
        Arguments.of(BigEndianLongCoder.of(), Long.MIN_VALUE, FieldType.INT64, Long.MIN_VALUE),
        Arguments.of(FloatCoder.of(), 1.5f, FieldType.FLOAT, Float.valueOf(1.5f)),
        Arguments.of(DoubleCoder.of(), -0.25d, FieldType.DOUBLE, Double.valueOf(-0.25d)),
        Arguments.of(BooleanCoder.of(), true, FieldType.BOOLEAN, Boolean.TRUE),
        Arguments.of(ByteArrayCoder.of(), bytes, FieldType.BYTES, bytes.clone()),
        Arguments.of(
            InstantCoder.of(),
            new org.joda.time.Instant(1_764_680_400_123L),
            FieldType.TIMESTAMP,
            java.time.Instant.parse("2025-12-02T13:00:00.123Z")),
        Arguments.of(
            LengthPrefixCoder.of(StringUtf8Coder.of()), "framed", FieldType.STRING, "framed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("primitives")
  void primitiveCodersMapToTheirColumnTypeAndBack(
      Coder<?> coder, Object beamValue, FieldType expectedType, Object expectedModel)
      throws Exception {
    CoderMapping mapping = CoderTypes.of(coder);
    assertEquals(expectedType, mapping.type());
    assertFalse(mapping.nullable(), "only NullableCoder admits null");
    assertModel(expectedModel, convert(mapping, beamValue));
    assertTrue(mapping.invertible());
    Object back = mapping.toBeam(expectedModel);
    // The inverse is right if the coder encodes it exactly as the original value.
    assertArrayEquals(encode(coder, beamValue), encode(coder, back));
    assertEquals(beamValue.getClass(), back.getClass());
  }

  @SuppressWarnings("unchecked")
  private static byte[] encode(Coder<?> coder, Object value) throws Exception {
    return CoderUtils.encodeToByteArray((Coder<Object>) coder, value);
  }

  @Test
  void inversesRefuseModelValuesNoBeamValueHas() {
    IllegalArgumentException tooBig =
        assertThrows(
            IllegalArgumentException.class,
            () -> CoderTypes.of(BigEndianShortCoder.of()).toBeam(70000));
    assertTrue(tooBig.getMessage().contains("-32768 to 32767"), tooBig.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CoderTypes.of(ByteCoder.of()).toBeam(128));
    IllegalArgumentException micros =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                CoderTypes.of(InstantCoder.of()).toBeam(java.time.Instant.ofEpochSecond(1, 1000)));
    assertTrue(micros.getMessage().contains("sub-millisecond"), micros.getMessage());
    IllegalArgumentException wrongClass =
        assertThrows(
            IllegalArgumentException.class, () -> CoderTypes.of(VarLongCoder.of()).toBeam(7));
    assertTrue(wrongClass.getMessage().contains("must be a Long"), wrongClass.getMessage());
  }

  @Test
  void bigNumbersAreExactDecimalStrings() throws Exception {
    CoderMapping decimal = CoderTypes.of(BigDecimalCoder.of());
    assertEquals(FieldType.STRING, decimal.type());
    assertModel("0.000000000000000000001", convert(decimal, new BigDecimal("1E-21")));
    assertModel("-12.50", convert(decimal, new BigDecimal("-12.50")));
    CoderMapping integer = CoderTypes.of(BigIntegerCoder.of());
    assertEquals(FieldType.STRING, integer.type());
    assertModel(
        "123456789012345678901234567890",
        convert(integer, new BigInteger("123456789012345678901234567890")));
  }

  @Test
  void kvIsARowOfKeyAndValue() throws Exception {
    CoderMapping mapping = CoderTypes.of(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()));
    assertEquals(FieldType.parse("ROW<key STRING NOT NULL, value INT64 NOT NULL>"), mapping.type());
    assertModel(List.of("bob", 3L), convert(mapping, KV.of("bob", 3L)));
    assertFalse(mapping.invertible());
  }

  @Test
  void nullableCoderMakesTheInnerTypeNullable() throws Exception {
    CoderMapping mapping = CoderTypes.of(NullableCoder.of(StringUtf8Coder.of()));
    assertEquals(FieldType.STRING, mapping.type());
    assertTrue(mapping.nullable());
    assertNull(convert(mapping, null));
    assertModel("x", convert(mapping, "x"));
    assertEquals("x", mapping.toBeam("x"));

    CoderMapping kv =
        CoderTypes.of(KvCoder.of(StringUtf8Coder.of(), NullableCoder.of(VarLongCoder.of())));
    assertEquals(FieldType.parse("ROW<key STRING NOT NULL, value INT64>"), kv.type());
    assertModel(Arrays.asList("k", null), convert(kv, KV.of("k", null)));
  }

  static Stream<Arguments> iterables() {
    Coder<Long> e = VarLongCoder.of();
    return Stream.of(
        Arguments.of(ListCoder.of(e), new ArrayList<>(List.of(3L, 1L, 2L))),
        Arguments.of(IterableCoder.of(e), List.of(3L, 1L, 2L)),
        Arguments.of(CollectionCoder.of(e), List.of(3L, 1L, 2L)),
        Arguments.of(DequeCoder.of(e), new ArrayDeque<>(List.of(3L, 1L, 2L))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("iterables")
  void iterableCodersAreListsInTheirOrder(Coder<?> coder, Iterable<Long> value) throws Exception {
    CoderMapping mapping = CoderTypes.of(coder);
    assertEquals(FieldType.parse("LIST<INT64>"), mapping.type());
    assertModel(List.of(3L, 1L, 2L), convert(mapping, value));
  }

  @Test
  void setsAreListedInOneOrderWhateverTheirIterationOrder() throws Exception {
    CoderMapping mapping = CoderTypes.of(SetCoder.of(StringUtf8Coder.of()));
    assertEquals(FieldType.parse("LIST<STRING>"), mapping.type());
    Set<String> one = new LinkedHashSet<>(List.of("pear", "apple", "fig", "kiwi"));
    Set<String> other = new LinkedHashSet<>(List.of("kiwi", "fig", "apple", "pear"));
    // A string's outer encoding is its UTF-8 bytes, so for ASCII the order is String order.
    List<String> sorted = new ArrayList<>(new TreeSet<>(one));
    assertModel(sorted, mapping.toModel(one));
    assertModel(sorted, mapping.toModel(other));
    assertModel(sorted, convert(mapping, one));
  }

  @Test
  void mapsKeepTheirEntries() throws Exception {
    CoderMapping mapping = CoderTypes.of(MapCoder.of(StringUtf8Coder.of(), VarIntCoder.of()));
    assertEquals(FieldType.parse("MAP<STRING, INT32>"), mapping.type());
    Map<String, Integer> value = new LinkedHashMap<>();
    value.put("a", 1);
    value.put("b", 2);
    assertModel(Map.of("a", 1, "b", 2), convert(mapping, value));

    CoderMapping sorted = CoderTypes.of(SortedMapCoder.of(VarLongCoder.of(), DoubleCoder.of()));
    assertEquals(FieldType.parse("MAP<INT64, DOUBLE>"), sorted.type());
    assertModel(Map.of(1L, 0.5, 2L, 1.5), convert(sorted, new TreeMap<>(Map.of(2L, 1.5, 1L, 0.5))));
  }

  @Test
  void nullMapKeysAreRefusedWithAReason() {
    CoderMapping mapping =
        CoderTypes.of(MapCoder.of(NullableCoder.of(StringUtf8Coder.of()), VarIntCoder.of()));
    Map<String, Integer> value = new LinkedHashMap<>();
    value.put(null, 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> mapping.toModel(value));
    assertTrue(e.getMessage().contains("null key"), e.getMessage());
  }

  @Test
  void nestedCollectionsMapRecursively() throws Exception {
    Coder<Map<String, List<KV<String, Double>>>> coder =
        MapCoder.of(
            StringUtf8Coder.of(), ListCoder.of(KvCoder.of(StringUtf8Coder.of(), DoubleCoder.of())));
    CoderMapping mapping = CoderTypes.of(coder);
    assertEquals(
        FieldType.parse("MAP<STRING, LIST<ROW<key STRING NOT NULL, value DOUBLE NOT NULL>>>"),
        mapping.type());
    Map<String, List<KV<String, Double>>> value =
        Map.of("u", List.of(KV.of("x", 1.0), KV.of("y", 2.0)), "v", List.of());
    assertModel(
        Map.of("u", List.of(List.of("x", 1.0), List.of("y", 2.0)), "v", List.of()),
        convert(mapping, value));
  }

  /** A value without a schema or a standard coder. */
  static final class Note implements Serializable {
    final String text;
    final int stars;

    Note(String text, int stars) {
      this.text = text;
      this.stars = stars;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Note n && n.text.equals(text) && n.stars == stars;
    }

    @Override
    public int hashCode() {
      return Objects.hash(text, stars);
    }

    @Override
    public String toString() {
      return "Note(" + text + ", " + stars + ")";
    }
  }

  @Test
  void otherCodersAreOpaqueBytesNamingTheCoder() throws Exception {
    Coder<Note> coder = SerializableCoder.of(Note.class);
    CoderMapping mapping = CoderTypes.of(coder);
    assertInstanceOf(OpaqueType.class, mapping.type());
    assertEquals(coder.toString(), ((OpaqueType) mapping.type()).coder());
    Note note = new Note("nice", 4);
    OpaqueValue v = (OpaqueValue) convert(mapping, note);
    assertEquals("Note(nice, 4)", v.readable());
    assertEquals(note, CoderUtils.decodeFromByteArray(coder, v.bytes()));
    assertFalse(mapping.invertible());
    assertThrows(UnsupportedOperationException.class, () -> mapping.toBeam(v));
  }

  /** A hand-written coder: upper-cased UTF-8 with a one-byte length. */
  static final class ShoutCoder extends AtomicCoder<String> {
    @Override
    public void encode(String value, OutputStream out) throws IOException {
      byte[] b = value.toUpperCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
      out.write(b.length);
      out.write(b);
    }

    @Override
    public String decode(InputStream in) throws IOException {
      byte[] b = new byte[in.read()];
      int n = in.readNBytes(b, 0, b.length);
      return new String(b, 0, n, StandardCharsets.UTF_8);
    }
  }

  @Test
  void aCustomCoderInsideACollectionIsOpaquePerElement() throws Exception {
    CoderMapping mapping = CoderTypes.of(ListCoder.of(new ShoutCoder()));
    assertEquals(FieldType.parse("LIST<OPAQUE>"), mapping.type());
    @SuppressWarnings("unchecked")
    List<OpaqueValue> out = (List<OpaqueValue>) convert(mapping, List.of("hi"));
    assertArrayEquals(new byte[] {2, 'H', 'I'}, out.get(0).bytes());
    assertEquals("HI", out.get(0).readable());
  }

  @Test
  void arraysReadAsTheirElements() {
    CoderMapping mapping = CoderTypes.opaque(SerializableCoder.of(long[].class));
    assertEquals("[3, 4]", ((OpaqueValue) mapping.toModel(new long[] {3, 4})).readable());
  }
}
