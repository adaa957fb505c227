package io.arcon.tss.write;

import java.time.Instant;

/** Instants as microseconds since the epoch, the precision of every TSS timestamp column. */
final class Micros {
  private Micros() {}

  /** Truncates toward the past to whole microseconds (so sub-microsecond times stay ordered). */
  static long of(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
  }

  static Instant toInstant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }
}
