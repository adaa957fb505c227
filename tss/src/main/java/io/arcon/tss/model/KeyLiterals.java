package io.arcon.tss.model;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The {@code ON KEY 'literal'} of a CREATE TSS, read as a value of the state's key type. The
 * control plane parses it at CREATE (to refuse e.g. 'abc' for an INT64 key) and the agent parses it
 * again to filter rows.
 *
 * <p>BYTES keys match the UTF-8 bytes of the literal; OPAQUE keys match their readable string;
 * TIMESTAMP keys take ISO-8601 UTC ({@code 2026-12-02T13:00:00Z}). Composite keys (ROW, LIST, MAP)
 * cannot be filtered on.
 */
public final class KeyLiterals {
  private KeyLiterals() {}

  /**
   * @throws IllegalArgumentException saying why the literal does not fit the key type
   */
  public static Object parse(FieldType keyType, String literal) {
    Objects.requireNonNull(literal, "key literal");
    if (keyType instanceof OpaqueType) {
      return new OpaqueMatch(literal);
    }
    if (!(keyType instanceof PrimitiveType p)) {
      throw new IllegalArgumentException(
          "ON KEY needs a key of a primitive type, but the key type is " + keyType);
    }
    try {
      return switch (p) {
        case STRING -> literal;
        case INT32 -> Integer.parseInt(literal.trim());
        case INT64 -> Long.parseLong(literal.trim());
        case FLOAT -> Float.parseFloat(literal.trim());
        case DOUBLE -> Double.parseDouble(literal.trim());
        case BOOLEAN -> parseBoolean(literal.trim());
        case BYTES -> literal.getBytes(StandardCharsets.UTF_8);
        case TIMESTAMP -> Instant.parse(literal.trim());
      };
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          "key '" + literal + "' is not a valid " + p + example(p), e);
    }
  }

  /** Whether a row's key equals a parsed filter (by content for bytes, by text for opaque). */
  public static boolean matches(Object filter, Object key) {
    if (filter instanceof OpaqueMatch m) {
      return key instanceof OpaqueValue v && m.readable().equals(v.readable());
    }
    if (filter instanceof byte[] bytes) {
      return key instanceof byte[] other && Arrays.equals(bytes, other);
    }
    return filter.equals(key);
  }

  private static Boolean parseBoolean(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new NumberFormatException(text);
    };
  }

  private static String example(PrimitiveType p) {
    return switch (p) {
      case INT32, INT64 -> " (give an integer such as '42')";
      case FLOAT, DOUBLE -> " (give a number such as '1.5')";
      case BOOLEAN -> " (give 'true' or 'false')";
      case TIMESTAMP -> " (give an ISO-8601 UTC time such as '2026-12-02T13:00:00Z')";
      default -> "";
    };
  }

  /** A filter on an opaque key: its readable rendering. */
  public record OpaqueMatch(String readable) {}
}
