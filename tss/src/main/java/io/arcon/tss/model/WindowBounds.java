package io.arcon.tss.model;

import java.time.Instant;
import java.util.Objects;

/**
 * The interval window a state cell belongs to, {@code [start, end)}. A {@link StateRow} with a
 * {@code null} window belongs to Beam's global window.
 */
public record WindowBounds(Instant start, Instant end) {
  public WindowBounds {
    Objects.requireNonNull(start, "window start");
    Objects.requireNonNull(end, "window end");
    if (end.isBefore(start)) {
      throw new IllegalArgumentException(
          "Window end " + end + " is before its start " + start + "; give start <= end");
    }
  }
}
