package io.arcon.runner.options;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Parses {@code --maxWatermarkDrift}: an ISO-8601 duration, or {@code off}. */
public final class WatermarkDrift {
  private WatermarkDrift() {}

  /** The drift in milliseconds, or -1 for {@code off}; unset means {@code defaultMillis}. */
  public static long parseMillis(String value, long defaultMillis) {
    if (value == null || value.isBlank()) {
      return defaultMillis;
    }
    String v = value.trim();
    if (v.toLowerCase(Locale.ROOT).equals("off")) {
      return -1;
    }
    Duration drift;
    try {
      drift = Duration.parse(v);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "--maxWatermarkDrift must be an ISO-8601 duration such as PT1S, or off; got '"
              + value
              + "'");
    }
    if (drift.isNegative()) {
      throw new IllegalArgumentException(
          "--maxWatermarkDrift must not be negative (use off to turn alignment off); got '"
              + value
              + "'");
    }
    return drift.toMillis();
  }
}
