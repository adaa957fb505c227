package io.arcon.benchmarks;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
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

  /**
   * Makes {@code options} run on ArconRunner measuring the runtime alone: TSS registration and the
   * web UI (both on by default for ArconRunner) are off unless the command line set them.
   */
  public static void arconRuntimeOnly(ArconPipelineOptions options) {
    options.setRunner(ArconRunner.class);
    if (options.getTss() == null) {
      options.setTss("off");
    }
    if (options.getWebUi() == null) {
      options.setWebUi("off");
    }
  }
}
