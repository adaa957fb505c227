package io.arcon.benchmarks.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.pipeline.KeyedCountBenchmark.Configuration;
import io.arcon.benchmarks.pipeline.KeyedCountBenchmark.Measurement;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KeyedCountBenchmarkTest {

  @ParameterizedTest
  @EnumSource(Configuration.class)
  void everyConfigurationCountsEveryElementOncePerKey(Configuration configuration) {
    KeyedCountBenchmark.Run run =
        KeyedCountBenchmark.runOnce(configuration, new String[] {"--parallelism=2"}, 20_000, 100);
    assertEquals(100, run.keys());
    assertEquals(20_000, run.countedElements());
  }

  @Test
  void fewerElementsThanKeysYieldOneKeyPerElement() {
    KeyedCountBenchmark.Run run =
        KeyedCountBenchmark.runOnce(
            Configuration.ARCON, new String[] {"--parallelism=2"}, 50, 10_000);
    assertEquals(50, run.keys());
    assertEquals(50, run.countedElements());
  }

  private static KeyedCountBenchmark.Options thousandElements() {
    return PipelineOptionsFactory.fromArgs("--elements=1000", "--parallelism=2")
        .as(KeyedCountBenchmark.Options.class);
  }

  @Test
  void reportDividesArconThroughputByEachDirectRunnerConfiguration() {
    String report =
        KeyedCountBenchmark.report(
            thousandElements(),
            List.of(
                new Measurement(Configuration.ARCON, List.of(1_000_000.0, 800_000.0)),
                new Measurement(Configuration.DIRECT, List.of(50_000.0, 30_000.0)),
                new Measurement(Configuration.DIRECT_UNCHECKED, List.of(200_000.0)),
                new Measurement(Configuration.FLINK, List.of(1_250_000.0, 1_000_000.0))));
    assertTrue(
        report.contains("ratio ArconRunner / DirectRunner (default): 20.00x (best), 22.50x (mean)"),
        report);
    assertTrue(
        report.contains(
            "ratio ArconRunner / DirectRunner (no immutability/encodability): 5.00x (best), 4.50x"
                + " (mean)"),
        report);
    assertTrue(
        report.contains(
            "ratio ArconRunner / Flink DataStream (streaming): 0.80x (best), 0.80x (mean)"),
        report);
    assertFalse(report.contains("ratio ArconRunner / ArconRunner"), report);
    assertFalse(report.contains("steady"), report);
  }

  @Test
  void steadyStateRatiosComeFromTheSteadyRates() {
    String report =
        KeyedCountBenchmark.report(
            thousandElements(),
            List.of(
                new Measurement(
                    Configuration.ARCON, List.of(1.0, 1.0), List.of(6_000_000.0, Double.NaN)),
                new Measurement(
                    Configuration.FLINK, List.of(1.0, 1.0), List.of(12_000_000.0, 8_000_000.0))));
    assertTrue(report.contains("each measured run was preceded by one of 250 elements"), report);
    // best 6M / 12M; mean 6M (the NaN pair left out) / 10M
    assertTrue(
        report.contains(
            "steady-state ratio ArconRunner / Flink DataStream (streaming): 0.50x (best), 0.60x"
                + " (mean)"),
        report);
  }

  @Test
  void unknownConfigurationIsRejectedWithTheValidNames() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> Configuration.parseList("arcon,spark"));
    assertEquals(
        "Unknown configuration 'spark' in --configurations; use a comma-separated subset of"
            + " arcon,direct,direct-unchecked,flink,flink-batch",
        error.getMessage());
  }

  @Test
  void nonPositiveElementCountIsRejected() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> KeyedCountPipeline.build(org.apache.beam.sdk.Pipeline.create(), 0, 10));
    assertEquals("--elements must be positive, got 0", error.getMessage());
  }

  @Test
  void flinkJobRejectsNonPositiveKeyCountBeforeStartingACluster() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                KeyedCountBenchmark.runOnce(
                    Configuration.FLINK_BATCH, new String[] {"--parallelism=2"}, 100, 0));
    assertEquals("--keys must be positive, got 0", error.getMessage());
  }
}
