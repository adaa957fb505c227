package io.arcon.runner.tss.catalog;

import java.util.Arrays;

/** The readable rendering of an opaque value, for people and SQL next to its encoded bytes. */
final class Readables {
  private Readables() {}

  /**
   * {@link String#valueOf(Object)}, except that arrays (common as combine accumulators, e.g. {@code
   * long[]}) show their elements rather than their identity.
   */
  static String of(Object value) {
    if (value == null || !value.getClass().isArray()) {
      return String.valueOf(value);
    }
    // deepToString renders any array, primitive ones included, when wrapped in an Object[].
    String wrapped = Arrays.deepToString(new Object[] {value});
    return wrapped.substring(1, wrapped.length() - 1);
  }
}
