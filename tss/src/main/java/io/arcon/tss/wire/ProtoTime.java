package io.arcon.tss.wire;

import com.google.protobuf.Timestamp;
import java.time.Duration;
import java.time.Instant;

/** Instant <-> protobuf Timestamp, Duration <-> protobuf Duration. */
public final class ProtoTime {
  private ProtoTime() {}

  /** The earliest instant a protobuf {@code Timestamp} may carry: 0001-01-01T00:00:00Z. */
  public static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");

  /** The latest instant a protobuf {@code Timestamp} may carry: 9999-12-31T23:59:59.999999999Z. */
  public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999999999Z");

  /**
   * {@code instant} as a protobuf {@code Timestamp}, clamped to [{@link #MIN}, {@link #MAX}].
   * Beam's own bounds (about 290,000 years either side of 1970) are outside that range, and an
   * element of a pipeline without event times carries Beam's minimum; a timestamp outside the range
   * is refused by protobuf's JSON printer, which made the control plane fail every report of such
   * an app. Clamping loses nothing a TSS can ask for: its times are ISO dates, inside the range.
   */
  public static Timestamp toProto(Instant instant) {
    if (instant.isBefore(MIN)) {
      instant = MIN;
    } else if (instant.isAfter(MAX)) {
      instant = MAX;
    }
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  public static Instant toInstant(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }

  public static com.google.protobuf.Duration toProto(Duration duration) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }

  public static Duration toDuration(com.google.protobuf.Duration duration) {
    return Duration.ofSeconds(duration.getSeconds(), duration.getNanos());
  }
}
