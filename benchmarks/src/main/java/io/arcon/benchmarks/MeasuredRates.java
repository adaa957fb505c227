package io.arcon.benchmarks;

import java.util.List;

/**
 * A configuration's measured runs: their whole-run rates and, where measured, their steady-state
 * rates ({@link SteadyStateRate}), with the best and mean a report prints of each.
 */
public interface MeasuredRates {

  /** Elements (or events) per second of each measured run, start and stop included. */
  List<Double> rates();

  /** Steady-state rates, one per measured run; empty when not measured, NaN for a pair without. */
  List<Double> steadyRates();

  default double best() {
    return rates().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  default double mean() {
    return rates().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  default double steadyBest() {
    return SteadyStateRate.best(steadyRates());
  }

  default double steadyMean() {
    return SteadyStateRate.mean(steadyRates());
  }
}
