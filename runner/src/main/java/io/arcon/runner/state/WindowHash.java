package io.arcon.runner.state;

import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;

/**
 * A window's hash, and a quick equality, for the runner's own tables (state cells, timers, partial
 * combines), consistent with the window's {@code equals}.
 *
 * <p>An interval window's (subclasses too) comes from its bounds, which equal windows share, so no
 * {@code hashCode} runs: {@code IntervalWindow}'s computes a modular inverse in a loop, and a
 * subclass may box its fields (Nexmark's auction windows: 7% of Q6's time went to hashing them for
 * state and timer lookups). A subclass's windows of equal bounds collide, which its {@code equals}
 * sorts out.
 */
public final class WindowHash {
  private WindowHash() {}

  public static int of(BoundedWindow window) {
    if (window instanceof GlobalWindow) {
      return 0; // its hashCode is its class's identity hash, a slow runtime call
    }
    if (window instanceof IntervalWindow interval) {
      long h = interval.start().getMillis() * 0x9E3779B97F4A7C15L + interval.end().getMillis();
      return (int) (h ^ (h >>> 32));
    }
    return window.hashCode();
  }

  /**
   * Whether {@code a} equals {@code b} (either may be null). Two plain interval windows are
   * compared by their bounds' millis: {@code IntervalWindow.equals} goes through Joda's instant
   * conversion for each bound, and the runner compares every element's window with the one before
   * it.
   */
  public static boolean same(BoundedWindow a, BoundedWindow b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a.getClass() == IntervalWindow.class && b.getClass() == IntervalWindow.class) {
      IntervalWindow x = (IntervalWindow) a;
      IntervalWindow y = (IntervalWindow) b;
      return x.start().getMillis() == y.start().getMillis()
          && x.end().getMillis() == y.end().getMillis();
    }
    return a.equals(b);
  }
}
