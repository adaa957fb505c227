package io.arcon.tss.server;

import com.google.protobuf.util.Durations;
import io.arcon.tss.proto.TssDefinition;
import io.arcon.tss.wire.ProtoTime;
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

  VersionSchedule(TssDefinition definition) {
    this.at = ProtoTime.toInstant(definition.getAt());
    this.every =
        definition.hasEvery()
            ? Duration.ofSeconds(
                definition.getEvery().getSeconds(), definition.getEvery().getNanos())
            : null;
    this.until = definition.hasUntil() ? ProtoTime.toInstant(definition.getUntil()) : null;
    if (every != null && (every.isZero() || every.isNegative())) {
      throw new IllegalArgumentException(
          "FOR EACH period must be positive, got " + Durations.toString(definition.getEvery()));
    }
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
