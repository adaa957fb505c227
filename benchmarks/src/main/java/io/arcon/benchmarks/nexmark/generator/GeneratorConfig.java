package io.arcon.benchmarks.nexmark.generator;

import java.io.Serializable;

/**
 * What the event stream depends on: the seed of its random choices, its event-time rate and the
 * event time of event 0. Two generators with equal configurations produce equal streams.
 *
 * @param seed seed of every random choice
 * @param eventsPerSecond events per second of event time: event {@code i} happens {@code i /
 *     eventsPerSecond} seconds after {@code baseTimeMillis}
 * @param baseTimeMillis event time of event 0, in epoch milliseconds
 */
public record GeneratorConfig(long seed, long eventsPerSecond, long baseTimeMillis)
    implements Serializable {

  /** 2026-01-01T00:00:00Z: a fixed base, so every run of a configuration sees the same times. */
  public static final long DEFAULT_BASE_TIME_MILLIS = 1_767_225_600_000L;

  public GeneratorConfig {
    if (eventsPerSecond <= 0) {
      throw new IllegalArgumentException(
          "The event-time rate must be positive (events per second), got " + eventsPerSecond);
    }
  }

  public static GeneratorConfig of(long seed, long eventsPerSecond) {
    return new GeneratorConfig(seed, eventsPerSecond, DEFAULT_BASE_TIME_MILLIS);
  }
}
