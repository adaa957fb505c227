package io.arcon.runner.tss.catalog;

import java.time.Instant;
import org.joda.time.ReadableInstant;

/** Conversions between Beam's (Joda, millisecond) instants and TSS's {@link Instant}s. */
final class Times {
  private Times() {}

  static Instant toJava(ReadableInstant instant) {
    return Instant.ofEpochMilli(instant.getMillis());
  }

  /**
   * @throws IllegalArgumentException if {@code instant} has a sub-millisecond part, which no Beam
   *     instant has
   */
  static org.joda.time.Instant toJoda(Instant instant) {
    if (instant.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException(
          instant
              + " has a sub-millisecond part, but Beam instants are whole milliseconds; give a"
              + " time in whole milliseconds");
    }
    return new org.joda.time.Instant(instant.toEpochMilli());
  }
}
