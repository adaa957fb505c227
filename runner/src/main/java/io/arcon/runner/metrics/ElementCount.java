package io.arcon.runner.metrics;

import org.apache.beam.runners.core.metrics.MonitoringInfoConstants;
import org.apache.beam.runners.core.metrics.MonitoringInfoMetricName;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricsContainer;

/**
 * Beam's system metric {@code beam:metric:element_count:v1} of one PCollection: the elements its
 * producer emitted. Counted in a plain field per operator instance and added to the shared cell
 * once per bundle, so the hot path pays no atomic operation per element.
 */
public final class ElementCount {
  private final Counter counter;
  private long pending;

  ElementCount(MetricsContainer container, String pcollection) {
    this.counter =
        container.getCounter(
            MonitoringInfoMetricName.named(
                MonitoringInfoConstants.Urns.ELEMENT_COUNT,
                java.util.Map.of(MonitoringInfoConstants.Labels.PCOLLECTION, pcollection)));
  }

  public void increment() {
    pending++;
  }

  /** Publishes what was counted since the last flush. */
  public void flush() {
    if (pending > 0) {
      counter.inc(pending);
      pending = 0;
    }
  }
}
