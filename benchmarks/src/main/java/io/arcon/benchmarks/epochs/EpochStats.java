package io.arcon.benchmarks.epochs;

import io.arcon.runner.checkpointing.EpochMetrics;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * What the runner's epoch metrics ({@link EpochMetrics}: step {@value EpochMetrics#STEP}, namespace
 * {@value EpochMetrics#NAMESPACE}) say about one run, or about several runs added up.
 *
 * @param completed epochs that became durable
 * @param givenUp epochs abandoned (timeout, failed snapshot, or still in flight when the job ended)
 * @param durationSumMillis sum of the completed epochs' durations (trigger to manifest)
 * @param durationMaxMillis the longest completed epoch
 * @param sizeSumBytes sum of the completed epochs' sizes on disk
 * @param sizeMaxBytes the largest completed epoch
 */
public record EpochStats(
    long completed,
    long givenUp,
    long durationSumMillis,
    long durationMaxMillis,
    long sizeSumBytes,
    long sizeMaxBytes) {

  public static final EpochStats NONE = new EpochStats(0, 0, 0, 0, 0, 0);

  /** The epoch metrics of a finished run (attempted values: the runner commits none). */
  public static EpochStats of(PipelineResult result) {
    MetricQueryResults metrics =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.inNamespace(EpochMetrics.NAMESPACE))
                    .build());
    long completed = 0;
    long givenUp = 0;
    for (MetricResult<Long> counter : metrics.getCounters()) {
      switch (counter.getName().getName()) {
        case "completed" -> completed += counter.getAttempted();
        case "givenUp" -> givenUp += counter.getAttempted();
        default -> {}
      }
    }
    long durationSum = 0;
    long durationCount = 0;
    long durationMax = 0;
    long sizeSum = 0;
    long sizeMax = 0;
    for (MetricResult<DistributionResult> distribution : metrics.getDistributions()) {
      DistributionResult d = distribution.getAttempted();
      if (d.getCount() == 0) {
        continue;
      }
      switch (distribution.getName().getName()) {
        case "durationMillis" -> {
          durationSum += d.getSum();
          durationCount += d.getCount();
          durationMax = Math.max(durationMax, d.getMax());
        }
        case "sizeBytes" -> {
          sizeSum += d.getSum();
          sizeMax = Math.max(sizeMax, d.getMax());
        }
        default -> {}
      }
    }
    if (durationCount != completed) {
      throw new IllegalStateException(
          "The epoch metrics disagree: "
              + completed
              + " completed epochs but "
              + durationCount
              + " recorded durations");
    }
    return new EpochStats(completed, givenUp, durationSum, durationMax, sizeSum, sizeMax);
  }

  /** Both runs' epochs together. */
  public EpochStats plus(EpochStats other) {
    return new EpochStats(
        completed + other.completed,
        givenUp + other.givenUp,
        durationSumMillis + other.durationSumMillis,
        Math.max(durationMaxMillis, other.durationMaxMillis),
        sizeSumBytes + other.sizeSumBytes,
        Math.max(sizeMaxBytes, other.sizeMaxBytes));
  }

  /** Mean duration of a completed epoch, NaN without one. */
  public double meanDurationMillis() {
    return completed == 0 ? Double.NaN : (double) durationSumMillis / completed;
  }

  /** Mean size of a completed epoch, NaN without one. */
  public double meanSizeBytes() {
    return completed == 0 ? Double.NaN : (double) sizeSumBytes / completed;
  }
}
