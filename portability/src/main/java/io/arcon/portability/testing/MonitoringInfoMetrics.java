package io.arcon.portability.testing;

import java.util.List;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.runners.core.metrics.DistributionData;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.core.metrics.MonitoringInfoConstants;
import org.apache.beam.runners.core.metrics.MonitoringInfoEncodings;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.MetricResults;

/**
 * A job's user metrics, as GetJobMetrics returns them (MonitoringInfos), as Beam's {@link
 * MetricResults}: keyed by the transform and the metric's own namespace and name, as a Java
 * pipeline's author queries them (and as {@code TestPipeline} counts PAssert's successes).
 */
final class MonitoringInfoMetrics {
  private MonitoringInfoMetrics() {}

  /** The user metrics, per transform, attempted and committed. */
  static MetricResults of(
      List<MetricsApi.MonitoringInfo> attempted, List<MetricsApi.MonitoringInfo> committed) {
    return MetricsContainerStepMap.asMetricResults(steps(attempted), steps(committed));
  }

  private static MetricsContainerStepMap steps(List<MetricsApi.MonitoringInfo> infos) {
    MetricsContainerStepMap steps = new MetricsContainerStepMap();
    for (MetricsApi.MonitoringInfo info : infos) {
      String namespace = info.getLabelsOrDefault(MonitoringInfoConstants.Labels.NAMESPACE, null);
      String name = info.getLabelsOrDefault(MonitoringInfoConstants.Labels.NAME, null);
      if (namespace == null || name == null) {
        continue; // a system metric (element counts, timings): not a user's
      }
      MetricsContainerImpl container =
          steps.getContainer(
              info.getLabelsOrDefault(MonitoringInfoConstants.Labels.PTRANSFORM, ""));
      add(container, MetricName.named(namespace, name), info);
    }
    return steps;
  }

  private static void add(
      MetricsContainerImpl container, MetricName name, MetricsApi.MonitoringInfo info) {
    String urn = info.getUrn();
    if (urn.equals(MonitoringInfoConstants.Urns.USER_SUM_INT64)) {
      container.getCounter(name).inc(MonitoringInfoEncodings.decodeInt64Counter(info.getPayload()));
    } else if (urn.equals(MonitoringInfoConstants.Urns.USER_DISTRIBUTION_INT64)) {
      DistributionData data = MonitoringInfoEncodings.decodeInt64Distribution(info.getPayload());
      container.getDistribution(name).update(data.sum(), data.count(), data.min(), data.max());
    } else if (urn.equals(MonitoringInfoConstants.Urns.USER_LATEST_INT64)) {
      container
          .getGauge(name)
          .set(MonitoringInfoEncodings.decodeInt64Gauge(info.getPayload()).value());
    } else if (urn.equals(MonitoringInfoConstants.Urns.USER_SET_STRING)) {
      container
          .getStringSet(name)
          .add(
              MonitoringInfoEncodings.decodeStringSet(info.getPayload())
                  .stringSet()
                  .toArray(String[]::new));
    } else if (urn.equals(MonitoringInfoConstants.Urns.USER_BOUNDED_TRIE)) {
      container
          .getBoundedTrie(name)
          .update(MonitoringInfoEncodings.decodeBoundedTrie(info.getPayload()));
    }
    // Histograms and double sums have no MetricResults accessor in the Java SDK.
  }
}
