package io.arcon.tss.model;

/**
 * The type of a key, a value, or a nested field of an exported state.
 *
 * <p>Primitives are the constants of {@link PrimitiveType} (also reachable as {@code
 * FieldType.STRING} etc.); composites are {@link RowType}, {@link ListType} and {@link MapType};
 * {@link OpaqueType} stands for any type without a known structure, exported as its encoded bytes
 * plus a human-readable string.
 *
 * <p>{@link #toString()} renders the type in a compact, parseable notation such as {@code ROW<name
 * STRING, n INT64 NOT NULL>}, {@code LIST<INT32>}, {@code MAP<STRING, DOUBLE>} or {@code OPAQUE};
 * {@link #parse(String)} reads it back. This notation lets the control plane carry types as text
 * (for example in protobuf messages and in {@code DESCRIBE APP}).
 */
public sealed interface FieldType permits PrimitiveType, RowType, ListType, MapType, OpaqueType {

  PrimitiveType STRING = PrimitiveType.STRING;
  PrimitiveType INT32 = PrimitiveType.INT32;
  PrimitiveType INT64 = PrimitiveType.INT64;
  PrimitiveType FLOAT = PrimitiveType.FLOAT;
  PrimitiveType DOUBLE = PrimitiveType.DOUBLE;
  PrimitiveType BOOLEAN = PrimitiveType.BOOLEAN;
  PrimitiveType BYTES = PrimitiveType.BYTES;
  PrimitiveType TIMESTAMP = PrimitiveType.TIMESTAMP;
  OpaqueType OPAQUE = OpaqueType.INSTANCE;

  /**
   * Parses the notation produced by {@link #toString()}, case-insensitively for type names.
   *
   * @throws IllegalArgumentException naming the position and what was expected when the text is not
   *     a valid type
   */
  static FieldType parse(String text) {
    return new FieldTypeParser(text).parseWhole();
  }

  /**
   * The type for humans ({@code DESCRIBE APP}): {@link #toString()}, except that every opaque type
   * inside it names its coder, e.g. {@code LIST<OPAQUE(SerializableCoder(Foo))>}. Not parseable.
   *
   * <p>Abstract, not a default method: a default method would make initializing {@link
   * PrimitiveType} initialize this interface first, whose constants read {@link PrimitiveType}'s
   * before they exist.
   */
  String describe();
}
