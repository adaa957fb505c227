package io.arcon.benchmarks.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.pipeline.TriggeredGroupingBenchmark.Configuration;
import io.arcon.benchmarks.pipeline.TriggeredGroupingBenchmark.Measurement;
import io.arcon.benchmarks.pipeline.TriggeredGroupingBenchmark.Options;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TriggeredGroupingBenchmarkTest {

  /** Every configuration, on both runners, puts each element into exactly one pane (verified). */
  @ParameterizedTest
  @EnumSource(Configuration.class)
  void everyConfigurationVerifies(Configuration configuration) {
    double seconds =
        TriggeredGroupingBenchmark.runOnce(
            new String[] {"--parallelism=2"},
            configuration,
            // DirectRunner reads an unbounded source in small bundles: fewer elements there.
            configuration.direct ? 3_000 : 20_000,
            100);
    assertTrue(seconds > 0);
  }

  /** The steady columns are the best and mean of the pairs that had a steady rate (NaN skipped). */
  @Test
  void reportGivesSteadyBestAndMeanBesideTheWholeRun() {
    Options options =
        PipelineOptionsFactory.fromArgs("--elements=2000000", "--runs=3").as(Options.class);
    String report =
        TriggeredGroupingBenchmark.report(
            options,
            List.of(
                new Measurement(
                    Configuration.SESSIONS_GBK,
                    List.of(800_000.0, 900_000.0, 1_000_000.0),
                    List.of(1_100_000.0, Double.NaN, 1_300_000.0))));
    assertTrue(report.contains("preceded by one of 500,000 elements"), report);
    assertTrue(
        report.contains(
            "ArconRunner, session windows (merging), GroupByKey              1,000,000        "
                + "900,000      1,300,000      1,200,000"),
        report);
  }

  @Test
  void reportWithoutSteadyRatesHasNoSteadyColumns() {
    Options options = PipelineOptionsFactory.fromArgs("--runs=1").as(Options.class);
    String report =
        TriggeredGroupingBenchmark.report(
            options,
            List.of(
                new Measurement(
                    Configuration.EARLY_LATE_SUM,
                    List.of(1_000_000.0),
                    new java.util.ArrayList<>())));
    assertFalse(report.contains("steady"), report);
    assertTrue(report.contains("1,000,000"), report);
  }
}
