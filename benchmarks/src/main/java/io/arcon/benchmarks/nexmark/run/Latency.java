package io.arcon.benchmarks.nexmark.run;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The latency of a streaming run, from event to output. The paced source emits event {@code i} at
 * {@code start + i / rate}, where {@code start} is when it emits the first event; an event's time
 * is {@code base + i / rate} too, so an output with event timestamp {@code t} (the newest event
 * that made it, or its window's last millisecond) could at the earliest be produced at {@code start
 * + (t - base)}. Its latency is the wall time at the sink minus that instant, so a source that
 * falls behind its schedule shows as latency, not as a lower rate of arrivals.
 *
 * <p>Sources and sinks find their run's clock and histogram through the run id, in this JVM: every
 * runner of the benchmark runs in the process that started it.
 */
public final class Latency {
  private static final Map<String, Latency> RUNS = new ConcurrentHashMap<>();

  private final long baseTimeMillis;
  private volatile long startNanos;
  private final ConcurrentHistogram micros = new ConcurrentHistogram(3);

  private Latency(long baseTimeMillis) {
    this.baseTimeMillis = baseTimeMillis;
  }

  /** Registers a streaming run whose event 0 has time {@code baseTimeMillis}; returns its id. */
  public static String open(long baseTimeMillis) {
    String runId = UUID.randomUUID().toString();
    RUNS.put(runId, new Latency(baseTimeMillis));
    return runId;
  }

  /**
   * The wall instant ({@link System#nanoTime()}) the run's source started emitting; the first call,
   * by the source, sets it.
   */
  public static long startNanos(String runId) {
    Latency run = of(runId);
    if (run.startNanos == 0) {
      synchronized (run) {
        if (run.startNanos == 0) {
          run.startNanos = System.nanoTime();
        }
      }
    }
    return run.startNanos;
  }

  /** Records the latency of an output with event timestamp {@code eventTimeMillis}, at the sink. */
  public static void recordOutput(String runId, long eventTimeMillis) {
    Latency run = of(runId);
    long due = run.startNanos + TimeUnit.MILLISECONDS.toNanos(eventTimeMillis - run.baseTimeMillis);
    long latencyMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - due);
    run.micros.recordValue(Math.max(0, latencyMicros));
  }

  /** Unregisters the run and returns its latencies (null if no output was recorded). */
  public static Summary close(String runId) {
    Latency run = RUNS.remove(runId);
    if (run == null || run.micros.getTotalCount() == 0) {
      return null;
    }
    return new Summary(
        run.micros.getTotalCount(),
        run.micros.getValueAtPercentile(50) / 1000.0,
        run.micros.getValueAtPercentile(99) / 1000.0,
        run.micros.getMaxValue() / 1000.0);
  }

  private static Latency of(String runId) {
    Latency run = RUNS.get(runId);
    if (run == null) {
      throw new IllegalStateException(
          "No streaming run "
              + runId
              + " in this JVM: Nexmark streaming runs must run in the"
              + " process that started them");
    }
    return run;
  }

  /** Latency percentiles of a run's outputs, in milliseconds. */
  public record Summary(long outputs, double p50Millis, double p99Millis, double maxMillis) {}
}
