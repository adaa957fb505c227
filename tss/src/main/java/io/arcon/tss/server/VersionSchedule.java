package io.arcon.tss.server;

import java.time.Duration;
import java.time.Instant;

/**
 * The version times of a TSS: AT, then AT + k*EVERY while <= UNTIL (unbounded without UNTIL).
 * Generated one at a time, because an unbounded schedule has no end.
 */
final class VersionSchedule {
  private final Instant at;
  private final Duration every;
  private final Instant until;

  /**
   * @param every null for a single version at {@code at}
   * @param until null for an unbounded schedule
   */
  VersionSchedule(Instant at, Duration every, Instant until) {
    this.at = at;
    this.every = every;
    this.until = until;
    if (every != null && (every.isZero() || every.isNegative())) {
      throw new IllegalArgumentException("FOR EACH period must be positive, got " + every);
    }
  }

  static VersionSchedule of(TssSpec spec) {
    return new VersionSchedule(spec.at(), spec.every(), spec.until());
  }

  Instant first() {
    return at;
  }

  /** The version after {@code previous}, or null when the schedule has ended. */
  Instant next(Instant previous) {
    if (every == null) {
      return null;
    }
    Instant candidate = previous.plus(every);
    if (until != null && candidate.isAfter(until)) {
      return null;
    }
    return candidate;
  }
}
