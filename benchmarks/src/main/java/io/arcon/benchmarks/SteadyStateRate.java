package io.arcon.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * Throughput in steady state, free of a run's fixed costs: each measured run of {@code N} elements
 * is paired with a short run of {@link #shortElements N/4} in the same JVM, and the steady rate is
 * what the long run processed beyond the short one, {@code (N - N/4) / (t(N) - t(N/4))}.
 *
 * <p>Why: a whole run's time includes starting and stopping the engine, which differs a lot between
 * the systems compared. A local Flink MiniCluster takes about 0.9 s to start and deploy a trivial
 * job on the 2-core VM, ArconRunner's runtime about 0.2 s; in a 2.7 s Flink run of 20M elements
 * that start is a third of the time, so a whole-run ratio says as much about the start as about the
 * per-element work a long-running job is made of. Both figures are reported; the steady one is what
 * a job that runs for hours sees.
 *
 * <p>The pairs are measured only once the JIT compilers have settled: every benchmark runs one
 * short run, not measured, between its warm-up and its first pair. On two cores the compilers were
 * still busy in the first run after a 4M-element warm-up (ArconRunner's 5M-element
 * per-element-state run took 1.5 s there and 0.7–0.9 s afterwards), which shortened only the short
 * run of the first pair and made its steady rate look up to twice what it was.
 */
public final class SteadyStateRate {

  private SteadyStateRate() {}

  /** The short run paired with a measured run of {@code elements}: a quarter of it, at least 1. */
  public static long shortElements(long elements) {
    return Math.max(1, elements / 4);
  }

  /**
   * The line a report prints above its steady columns, saying how they were measured for measured
   * runs of {@code elements} (ends with a line break).
   */
  public static String reportLine(long elements) {
    long shortElements = shortElements(elements);
    return String.format(
        Locale.ROOT,
        "steady state: each measured run was preceded by one of %,d elements; steady el/s ="
            + " (%,d - %,d) / (measured s - short s), start and stop costs left out%n",
        shortElements,
        elements,
        shortElements);
  }

  /**
   * Elements per second beyond the short run, or NaN when the long run did not take longer than the
   * short one (runs too small for the machine's noise): such a pair says nothing about the steady
   * rate, and {@link #best}/{@link #mean} leave it out.
   */
  public static double of(long shortElements, double shortSeconds, long elements, double seconds) {
    if (shortElements >= elements) {
      throw new IllegalArgumentException(
          "the short run ("
              + shortElements
              + " elements) must be shorter than the measured run ("
              + elements
              + ")");
    }
    double extraSeconds = seconds - shortSeconds;
    if (!(extraSeconds > 0)) {
      return Double.NaN;
    }
    return (elements - shortElements) / extraSeconds;
  }

  /** The largest rate that is a number, NaN if none is. */
  public static double best(List<Double> rates) {
    return rates.stream()
        .mapToDouble(Double::doubleValue)
        .filter(r -> !Double.isNaN(r))
        .max()
        .orElse(Double.NaN);
  }

  /** The mean of the rates that are numbers, NaN if none is. */
  public static double mean(List<Double> rates) {
    return rates.stream()
        .mapToDouble(Double::doubleValue)
        .filter(r -> !Double.isNaN(r))
        .average()
        .orElse(Double.NaN);
  }
}
