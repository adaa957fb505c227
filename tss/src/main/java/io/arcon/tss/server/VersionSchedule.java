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

  /** The first version time at or after {@code time}, or null when the schedule ends before it. */
  Instant firstAtOrAfter(Instant time) {
    if (!time.isAfter(at)) {
      return at;
    }
    if (every == null) {
      return null;
    }
    long periods = Duration.between(at, time).dividedBy(every);
    Instant candidate = at.plus(every.multipliedBy(periods));
    if (candidate.isBefore(time)) {
      candidate = candidate.plus(every);
    }
    return until != null && candidate.isAfter(until) ? null : candidate;
  }

  /** The last version time, or null for an unbounded schedule. */
  Instant last() {
    if (every == null) {
      return at;
    }
    if (until == null) {
      return null;
    }
    return at.plus(every.multipliedBy(Duration.between(at, until).dividedBy(every)));
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
