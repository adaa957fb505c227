package io.arcon.runner.faults;

import java.io.Serializable;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The deterministic event stream the fault tests read: slot {@code i} (0 <= i < events) always
 * holds the same event, so every run, attempt and process sees the same input.
 *
 * <p>Event time runs one millisecond per slot from {@link #START}. After slot {@code i} the
 * source's watermark is {@code START + i - DISORDER}. Each slot is one of three kinds:
 *
 * <ul>
 *   <li>{@link Kind#ON_TIME}: out of order within {@link #DISORDER}, never behind the watermark;
 *   <li>{@link Kind#LATE}: behind the watermark, in a window whose on-time pane has fired but that
 *       is still within {@link #ALLOWED_LATENESS} (one such event per window, for a key that has
 *       on-time events there);
 *   <li>{@link Kind#DROPPED}: behind the watermark by more than the allowed lateness.
 * </ul>
 *
 * <p>Whether a late event lands in a late pane or is dropped depends on the watermark downstream
 * transforms see when it arrives, and a runner may deliver an element while that watermark still
 * lags the source's by a poll's worth of events (ArconRunner polls up to 512). The late and dropped
 * timestamps keep {@link #SLACK} events plus {@link #MARGIN} ms away from every boundary, so a
 * correct runner decides each of them one way only, whatever its timing: the expected output is a
 * function of the stream alone (see {@link ExpectedOutput}).
 *
 * @param events number of slots
 * @param seed chooses keys, values, disorder and the late slots
 * @param keys number of distinct keys
 * @param eventsPerSecond pace of the source (wall clock), so epochs cut the stream many times
 */
public record EventStream(int events, long seed, int keys, int eventsPerSecond)
    implements Serializable {

  /** Event time of slot 0. */
  public static final Instant START = Instant.parse("2024-01-01T00:00:00Z");

  public static final Duration WINDOW = Duration.standardSeconds(1);
  public static final Duration ALLOWED_LATENESS = Duration.standardSeconds(4);

  /** On-time events are at most this much (exclusive) older than their slot's time. */
  static final long DISORDER = 200;

  /** Events a downstream watermark may lag the source by (twice the runner's poll size). */
  static final long SLACK = 1024;

  /** Extra milliseconds between a late timestamp and the nearest boundary. */
  static final long MARGIN = 100;

  /** The first slot that may hold a dropped event: well past the first watermark. */
  static final long FIRST_DROPPED_SLOT = 2 * SLACK;

  /** One in this many slots (from {@link #FIRST_DROPPED_SLOT}) holds a dropped event. */
  static final int DROPPED_EVERY = 400;

  public enum Kind {
    ON_TIME,
    LATE,
    DROPPED
  }

  public EventStream {
    if (events < 1 || keys < 1 || eventsPerSecond < 1) {
      throw new IllegalArgumentException(
          "events, keys and eventsPerSecond must be positive: "
              + events
              + ", "
              + keys
              + ", "
              + eventsPerSecond);
    }
  }

  /** The event of {@code slot}. */
  public Event event(long slot) {
    return new Event(slot, key(slot), value(slot));
  }

  public Kind kind(long slot) {
    checkSlot(slot);
    if (lateWindowOf(slot) >= 0) {
      return Kind.LATE;
    }
    if (slot >= FIRST_DROPPED_SLOT && Math.floorMod(hash(slot, 3), DROPPED_EVERY) == 0) {
      return Kind.DROPPED;
    }
    return Kind.ON_TIME;
  }

  /** Event time of {@code slot}, in epoch milliseconds. */
  public long timestampMillis(long slot) {
    long slotTime = START.getMillis() + slot;
    return switch (kind(slot)) {
      case ON_TIME -> slotTime - Math.floorMod(hash(slot, 4), DISORDER);
      case LATE -> windowStart(lateWindowOf(slot)) + Math.floorMod(hash(slot, 4), windowMillis());
      // Beyond the window's lateness by SLACK + MARGIN events however the window falls.
      case DROPPED ->
          slotTime
              - DISORDER
              - SLACK
              - MARGIN
              - ALLOWED_LATENESS.getMillis()
              - windowMillis()
              - Math.floorMod(hash(slot, 4), 3 * windowMillis());
    };
  }

  /** The source's watermark once {@code slot} was read, in epoch milliseconds. */
  public long watermarkAfter(long slot) {
    checkSlot(slot);
    return START.getMillis() + slot - DISORDER;
  }

  public String key(long slot) {
    checkSlot(slot);
    long window = lateWindowOf(slot);
    if (window >= 0) {
      // A key with on-time events in the window, so its first pane there is the on-time one.
      for (long s = window * windowMillis() + DISORDER; s < events; s++) {
        if (kind(s) == Kind.ON_TIME && windowIndexOf(timestampMillis(s)) == window) {
          return onTimeKey(s);
        }
      }
      throw new IllegalStateException("Window " + window + " has no on-time event");
    }
    return onTimeKey(slot);
  }

  public long value(long slot) {
    checkSlot(slot);
    return 1 + Math.floorMod(hash(slot, 2), 1000);
  }

  /** The slot (if any) holding window {@code window}'s late event: see {@link #lateWindowOf}. */
  private long lateSlotOf(long window) {
    long windowEnd = windowStart(window + 1) - START.getMillis();
    // The window has closed SLACK + MARGIN events before (on-time pane fired) ...
    long first = windowEnd + DISORDER + SLACK + MARGIN;
    // ... and stays open SLACK + MARGIN events after; the window is always wider than MARGIN.
    long last = windowEnd - 1 + ALLOWED_LATENESS.getMillis() + DISORDER - SLACK - MARGIN;
    long span = Math.min(windowMillis(), last - first + 1);
    return first + Math.floorMod(hash(window, 5), span);
  }

  /**
   * The window index whose late event {@code slot} holds, or -1. Windows from index 1 have one late
   * event each, if it falls SLACK + MARGIN before the end of the stream (the late pane it causes
   * must fire before the final watermark).
   */
  private long lateWindowOf(long slot) {
    // Late slots of window w lie in [end(w) + DISORDER + SLACK + MARGIN, + windowMillis()).
    long offset = slot - DISORDER - SLACK - MARGIN;
    if (offset < 0) {
      return -1;
    }
    long window = offset / windowMillis() - 1;
    if (window < 1 || slot >= events - SLACK - MARGIN) {
      return -1;
    }
    return lateSlotOf(window) == slot ? window : -1;
  }

  private String onTimeKey(long slot) {
    return "k" + Math.floorMod(hash(slot, 1), keys);
  }

  /** Start (epoch millis) of window index {@code window} (index 0 starts at {@link #START}). */
  static long windowStart(long window) {
    return START.getMillis() + window * windowMillis();
  }

  static long windowIndexOf(long timestampMillis) {
    return Math.floorDiv(timestampMillis - START.getMillis(), windowMillis());
  }

  static long windowMillis() {
    return WINDOW.getMillis();
  }

  private void checkSlot(long slot) {
    if (slot < 0 || slot >= events) {
      throw new IndexOutOfBoundsException("Slot " + slot + " is outside [0, " + events + ")");
    }
  }

  /** SplitMix64 of (seed, slot, field): independent, reproducible draws per slot and field. */
  private long hash(long slot, int field) {
    long z = seed + slot * 0x9E3779B97F4A7C15L + field * 0xD1B54A32D192ED03L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
