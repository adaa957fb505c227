package io.arcon.examples.tss;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The events of a TSS demo app, each a pure function of its index and a seed: a run's events never
 * depend on wall-clock jitter, a reader resumes from an index alone, and a test recomputes every
 * expected state in plain Java.
 *
 * <p>Event {@code i} is emitted at {@code start + i * spacing} on the simulated clock ({@link
 * #emittedAt}), but it <em>happened</em> up to {@code maxDelay} earlier ({@link #eventTime}): a
 * seeded delay in {@code [0, maxDelay]}, never reaching before {@code start}. So the stream is out
 * of order by at most {@code maxDelay}, and the watermark trails the simulated clock by exactly
 * that much ({@link #watermarkBefore}).
 *
 * <p>Each event is {@code (user, value)}: the user is drawn from {@code users}, the value from
 * {@code [minValue, maxValue]} (1 for clicks, a step increment for steps).
 */
public final class SimulatedEvents implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Salts of the independent pseudo-random draws per event. */
  private static final long USER = 1;

  private static final long DELAY = 2;
  private static final long VALUE = 3;

  private final Instant start;
  private final ArrayList<String> users;
  private final long spacingMillis;
  private final long maxDelayMillis;
  private final long seed;
  private final long minValue;
  private final long maxValue;

  /**
   * @param start event time of the simulated clock's first tick; no event happens before it
   * @param users the distinct users events are spread over
   * @param spacing simulated time between two consecutive emissions
   * @param maxDelay how far an event's time may lie behind its emission (the out-of-orderness)
   * @param seed fixes the users, delays and values drawn
   * @param minValue smallest value of an event
   * @param maxValue largest value of an event
   */
  public SimulatedEvents(
      Instant start,
      List<String> users,
      Duration spacing,
      Duration maxDelay,
      long seed,
      long minValue,
      long maxValue) {
    if (users.isEmpty()) {
      throw new IllegalArgumentException("users must name at least one user, e.g. alice,bob");
    }
    Set<String> seen = new HashSet<>();
    for (String user : users) {
      if (user == null || user.isBlank()) {
        throw new IllegalArgumentException(
            "users must not contain an empty name, got " + users + "; e.g. alice,bob");
      }
      if (!seen.add(user)) {
        throw new IllegalArgumentException(
            "users must be distinct, but " + user + " appears twice in " + users);
      }
    }
    if (spacing.getMillis() <= 0) {
      throw new IllegalArgumentException(
          "the event spacing must be positive, got " + spacing.getMillis() + " ms");
    }
    if (maxDelay.getMillis() < 0) {
      throw new IllegalArgumentException(
          "the maximum event delay must not be negative, got " + maxDelay.getMillis() + " ms");
    }
    if (minValue > maxValue) {
      throw new IllegalArgumentException(
          "the value range is empty: minimum " + minValue + " > maximum " + maxValue);
    }
    this.start = start;
    this.users = new ArrayList<>(users);
    this.spacingMillis = spacing.getMillis();
    this.maxDelayMillis = maxDelay.getMillis();
    this.seed = seed;
    this.minValue = minValue;
    this.maxValue = maxValue;
  }

  public Instant start() {
    return start;
  }

  public List<String> users() {
    return List.copyOf(users);
  }

  /** When event {@code i} is emitted, on the simulated clock. */
  public Instant emittedAt(long i) {
    return new Instant(start.getMillis() + offsetMillis(i));
  }

  /** When event {@code i} happened: its emission time less its delay, never before the start. */
  public Instant eventTime(long i) {
    return new Instant(emittedAt(i).getMillis() - delayMillis(i));
  }

  /** How far event {@code i}'s time lies behind its emission, in {@code [0, maxDelay]}. */
  public long delayMillis(long i) {
    long drawn = Math.floorMod(draw(DELAY, i), maxDelayMillis + 1);
    return Math.min(drawn, offsetMillis(i));
  }

  /** The user of event {@code i}. */
  public String user(long i) {
    return users.get((int) Math.floorMod(draw(USER, i), (long) users.size()));
  }

  /** The value of event {@code i}, in {@code [minValue, maxValue]}. */
  public long value(long i) {
    return minValue + Math.floorMod(draw(VALUE, i), maxValue - minValue + 1);
  }

  /** Event {@code i} as the {@code (user, value)} element the apps process. */
  public KV<String, Long> event(long i) {
    return KV.of(user(i), value(i));
  }

  /**
   * The watermark once every event before {@code nextIndex} (of a reader emitting increasing
   * indexes) has been emitted: a bound at or before the time of every event from {@code nextIndex}
   * on, since none is delayed by more than {@code maxDelay} nor happened before the start.
   */
  public Instant watermarkBefore(long nextIndex) {
    long trailing = start.getMillis() + offsetMillis(nextIndex) - maxDelayMillis;
    return new Instant(Math.max(start.getMillis(), trailing));
  }

  private long offsetMillis(long i) {
    if (i < 0) {
      throw new IllegalArgumentException("event index must not be negative, got " + i);
    }
    // An overflow would wrap to the past and break the watermark bound: fail instead.
    return Math.multiplyExact(i, spacingMillis);
  }

  /** An independent pseudo-random draw per (salt, index), fixed by the seed. */
  private long draw(long salt, long i) {
    return mix(mix(seed ^ mix(salt)) + i);
  }

  /** SplitMix64's finalizer: a cheap, well-spread hash. */
  private static long mix(long x) {
    long z = x + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
