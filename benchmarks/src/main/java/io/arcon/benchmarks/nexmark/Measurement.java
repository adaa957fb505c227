package io.arcon.benchmarks.nexmark;

import io.arcon.benchmarks.MeasuredRates;
import io.arcon.benchmarks.SteadyStateRate;
import io.arcon.benchmarks.nexmark.run.Latency;
import io.arcon.benchmarks.nexmark.run.RunnerKind;
import java.util.ArrayList;
import java.util.List;

/** The measured runs of one query on one runner, or why they stopped. */
final class Measurement implements MeasuredRates {
  final int query;
  final RunnerKind runner;
  final long events;
  final List<Double> rates = new ArrayList<>();

  /** Steady-state rates ({@link SteadyStateRate}), one per round, NaN for a pair without one. */
  final List<Double> steadyRates = new ArrayList<>();

  final List<Latency.Summary> latencies = new ArrayList<>();
  String failure;

  Measurement(int query, RunnerKind runner, long events) {
    this.query = query;
    this.runner = runner;
    this.events = events;
  }

  boolean ok() {
    return failure == null && !rates.isEmpty();
  }

  @Override
  public List<Double> rates() {
    return rates;
  }

  @Override
  public List<Double> steadyRates() {
    return steadyRates;
  }

  /** The median over runs of each run's p50 latency (ms), or NaN without latencies. */
  double p50Millis() {
    return median(latencies.stream().mapToDouble(Latency.Summary::p50Millis).sorted().toArray());
  }

  /** The median over runs of each run's p99 latency (ms), or NaN without latencies. */
  double p99Millis() {
    return median(latencies.stream().mapToDouble(Latency.Summary::p99Millis).sorted().toArray());
  }

  private static double median(double[] sorted) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }
}
