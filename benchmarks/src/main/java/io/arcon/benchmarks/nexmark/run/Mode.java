package io.arcon.benchmarks.nexmark.run;

import java.util.Locale;

/** Whether the events are a bounded input or a paced, unbounded stream. */
public enum Mode {
  /** A bounded input, read as fast as the runner can; event time advances at --eventTimeRate. */
  BATCH,
  /** An unbounded stream paced at {@code --rate} events/s, with watermarks; latency is measured. */
  STREAMING;

  public static Mode parse(String text) {
    for (Mode mode : values()) {
      if (mode.name().equalsIgnoreCase(text.trim())) {
        return mode;
      }
    }
    throw new IllegalArgumentException("--mode must be batch or streaming, got '" + text + "'");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
