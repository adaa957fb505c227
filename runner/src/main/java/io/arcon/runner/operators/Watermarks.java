package io.arcon.runner.operators;

import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * Converts between the runtime's {@code long} watermarks (with {@link Long#MIN_VALUE} / {@link
 * Long#MAX_VALUE} as "nothing yet" / "input finished") and Beam's {@link Instant}s.
 */
public final class Watermarks {
  private static final long MIN = BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis();
  private static final long MAX = BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis();

  private Watermarks() {}

  public static Instant toInstant(long watermark) {
    if (watermark <= MIN) {
      return BoundedWindow.TIMESTAMP_MIN_VALUE;
    }
    if (watermark >= MAX) {
      return BoundedWindow.TIMESTAMP_MAX_VALUE;
    }
    return new Instant(watermark);
  }

  /**
   * The exclusive bound for firing event-time timers: a timer at {@code t} fires once the watermark
   * is past {@code t}. A finished input fires everything, including timers at the very end of time.
   */
  public static Instant firingBound(long watermark) {
    return watermark == Long.MAX_VALUE
        ? BoundedWindow.TIMESTAMP_MAX_VALUE.plus(org.joda.time.Duration.millis(1))
        : toInstant(watermark);
  }

  public static long fromInstant(Instant instant) {
    long millis = instant.getMillis();
    if (millis >= MAX) {
      return Long.MAX_VALUE;
    }
    if (millis <= MIN) {
      return Long.MIN_VALUE;
    }
    return millis;
  }
}
