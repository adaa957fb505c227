package io.arcon.benchmarks.nexmark.model;

/**
 * A 64-bit fingerprint of an output record, built field by field. Runners compare the sum of their
 * outputs' fingerprints, so the fingerprint must depend only on the record's field values (never on
 * identity or on the JVM) and must spread well, so that two different outputs are unlikely to sum
 * to the same digest. Strings contribute {@link String#hashCode()}, which the JLS fixes and the JVM
 * caches per string, so fingerprinting a record costs a few multiplications.
 */
public final class Fingerprint {
  private Fingerprint() {}

  /**
   * The starting value of a record of type {@code tag}; tags keep equal fields of two types apart.
   */
  public static long start(int tag) {
    return mix(0x9E3779B97F4A7C15L * (tag + 1));
  }

  /** {@code hash} extended by a long field. */
  public static long add(long hash, long field) {
    return mix(hash * 0xBF58476D1CE4E5B9L + field);
  }

  /** {@code hash} extended by a string field ({@code null} differs from every string). */
  public static long add(long hash, String field) {
    return add(hash, field == null ? 0x5DEECE66DL : field.hashCode());
  }

  /** {@code hash} extended by a double field, by its exact bits. */
  public static long add(long hash, double field) {
    return add(hash, Double.doubleToLongBits(field));
  }

  /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
  private static long mix(long h) {
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }
}
