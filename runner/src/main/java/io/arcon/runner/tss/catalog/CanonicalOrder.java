package io.arcon.runner.tss.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;

/**
 * A set has no order, but its exported LIST has one, and a DIFF compares lists element by element.
 * Listing a set's elements in the order of their encodings makes equal sets export equal lists
 * however the set was built (hash iteration order depends on insertion history).
 */
final class CanonicalOrder {
  private CanonicalOrder() {}

  /** The elements, sorted by their encodings with {@code coder} (unsigned byte order). */
  static <T> List<T> byEncoding(Iterable<T> elements, Coder<T> coder) {
    @SuppressWarnings("unchecked")
    Coder<Object> c = (Coder<Object>) coder;
    List<Encoded<T>> encoded = new ArrayList<>();
    for (T e : elements) {
      encoded.add(new Encoded<>(e, CoderTypes.encode(c, e)));
    }
    encoded.sort(Comparator.comparing(Encoded::bytes, Arrays::compareUnsigned));
    List<T> out = new ArrayList<>(encoded.size());
    for (Encoded<T> e : encoded) {
      out.add(e.value());
    }
    return out;
  }

  private record Encoded<T>(T value, byte[] bytes) {}
}
