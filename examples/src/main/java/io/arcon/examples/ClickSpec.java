package io.arcon.examples;

import java.io.Serializable;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A deterministic stream of clicks: click {@code i} is a pure function of {@code i}, so a source
 * can resume from a checkpoint by index alone and a test can recompute every expected result in
 * plain Java.
 *
 * <p>Click {@code i} happens at {@code START + i * spacing + jitter(i)} event time, where the
 * jitter is below {@code spacing} (mild reordering). Every {@code lateEvery}-th click is delayed:
 * its event time lies {@code lateBy} earlier, behind the watermark, so it arrives late. Clicks in
 * the first {@code lateBy} of the stream are never delayed, so no click lands before {@link #START}
 * and every window that receives clicks also receives on-time ones.
 */
public final class ClickSpec implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Event time of click 0. */
  public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final int users;
  private final long spacingMillis;
  private final long lateEvery;
  private final long lateByMillis;

  public ClickSpec(int users, Duration spacing, long lateEvery, Duration lateBy) {
    if (users <= 0) {
      throw new IllegalArgumentException("users must be positive, got " + users);
    }
    if (spacing.getMillis() <= 0) {
      throw new IllegalArgumentException("event spacing must be positive, got " + spacing);
    }
    if (lateEvery < 0) {
      throw new IllegalArgumentException(
          "lateEvery must be 0 (no late clicks) or positive, got " + lateEvery);
    }
    if (lateBy.getMillis() < 0) {
      throw new IllegalArgumentException("lateBy must not be negative, got " + lateBy);
    }
    this.users = users;
    this.spacingMillis = spacing.getMillis();
    this.lateEvery = lateEvery;
    this.lateByMillis = lateBy.getMillis();
  }

  /** The user who made click {@code i}. */
  public String user(long i) {
    return "user-" + Math.floorMod(mix(i), users);
  }

  /** Points scored by click {@code i}, 1 to 10. */
  public long points(long i) {
    return 1 + Math.floorMod(mix(i) >>> 24, 10);
  }

  /** Whether click {@code i} is one of the deliberately delayed ones. */
  public boolean isLate(long i) {
    return lateEvery > 0 && i % lateEvery == lateEvery - 1 && i * spacingMillis >= lateByMillis;
  }

  /** Event time of click {@code i}. */
  public Instant eventTime(long i) {
    long jitter = Math.floorMod(mix(i) >>> 40, spacingMillis);
    long millis = START.getMillis() + i * spacingMillis + jitter;
    return new Instant(isLate(i) ? millis - lateByMillis : millis);
  }

  /**
   * The event-time watermark once every click before {@code nextIndex} has been emitted: no on-time
   * click from {@code nextIndex} on can be earlier, since jitter is never negative.
   */
  public Instant watermarkBefore(long nextIndex) {
    return new Instant(START.getMillis() + nextIndex * spacingMillis - 1);
  }

  /** Click {@code i} as the {@code (user, points)} element the examples process. */
  public KV<String, Long> click(long i) {
    return KV.of(user(i), points(i));
  }

  /** SplitMix64's finalizer: a cheap, well-spread hash so users and points look random. */
  private static long mix(long i) {
    long z = i + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
