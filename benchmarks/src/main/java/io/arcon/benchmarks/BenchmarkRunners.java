package io.arcon.benchmarks;

import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.options.PipelineOptions;

/** The runner settings the benchmarks compare against. */
public final class BenchmarkRunners {
  private BenchmarkRunners() {}

  /**
   * Makes {@code options} run on DirectRunner without its immutability and encodability checks: the
   * fastest DirectRunner there is, the one the benchmarks' ratios are against (its default checks
   * make it about ten times slower still).
   */
  public static DirectOptions directRunnerWithoutChecks(PipelineOptions options) {
    options.setRunner(DirectRunner.class);
    DirectOptions direct = options.as(DirectOptions.class);
    direct.setEnforceImmutability(false);
    direct.setEnforceEncodability(false);
    return direct;
  }
}
