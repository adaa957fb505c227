package io.arcon.portability.testing;

import java.util.List;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.core.metrics.MonitoringInfoConstants;
import org.apache.beam.sdk.metrics.MetricResults;

/** A job's MonitoringInfos (as GetJobMetrics returns them) as Beam's {@link MetricResults}. */
final class MonitoringInfoMetrics {
  private MonitoringInfoMetrics() {}

  /**
   * The user and system metrics of {@code attempted}, per transform; only attempted values exist
   * (the job server reports no committed ones).
   */
  static MetricResults of(List<MetricsApi.MonitoringInfo> attempted) {
    MetricsContainerStepMap steps = new MetricsContainerStepMap();
    for (MetricsApi.MonitoringInfo info : attempted) {
      String transform = info.getLabelsOrDefault(MonitoringInfoConstants.Labels.PTRANSFORM, "");
      steps.getContainer(transform).update(List.of(info));
    }
    return MetricsContainerStepMap.asAttemptedOnlyMetricResults(steps);
  }
}
