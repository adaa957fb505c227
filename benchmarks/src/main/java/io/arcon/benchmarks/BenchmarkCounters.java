package io.arcon.benchmarks;

import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/** Reads the Beam counters a benchmark pipeline uses to verify its own result. */
public final class BenchmarkCounters {
  private BenchmarkCounters() {}

  /** The attempted value of counter {@code namespace:name}, summed over all steps. */
  public static long attempted(PipelineResult result, String namespace, String name) {
    long total = 0;
    for (MetricResult<Long> c :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(namespace, name))
                    .build())
            .getCounters()) {
      total += c.getAttempted();
    }
    return total;
  }
}
