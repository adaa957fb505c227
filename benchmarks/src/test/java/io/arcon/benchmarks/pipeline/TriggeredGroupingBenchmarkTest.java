package io.arcon.benchmarks.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.pipeline.TriggeredGroupingBenchmark.Configuration;
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
}
