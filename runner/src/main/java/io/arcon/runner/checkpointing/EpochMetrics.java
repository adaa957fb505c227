package io.arcon.runner.checkpointing;

import io.arcon.runtime.epoch.EpochListener;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.metrics.MetricName;

/**
 * Epoch counts, durations and sizes as Beam metrics of the pseudo step {@value #STEP} (namespace
 * {@value #NAMESPACE}), so they show in {@code PipelineResult.metrics()} and every metrics sink:
 * counters {@code completed} and {@code givenUp}, distributions {@code durationMillis} and {@code
 * sizeBytes}, gauge {@code lastCompleted} (the newest durable epoch).
 */
public final class EpochMetrics implements EpochListener {
  public static final String STEP = "ArconRunner/epochs";
  public static final String NAMESPACE = "arcon.epochs";

  private final MetricsContainerImpl container;

  public EpochMetrics(MetricsContainerStepMap metrics) {
    this.container = metrics.getContainer(STEP);
  }

  @Override
  public void epochCompleted(long epoch, long durationMillis, long bytes) {
    container.getCounter(MetricName.named(NAMESPACE, "completed")).inc();
    container.getDistribution(MetricName.named(NAMESPACE, "durationMillis")).update(durationMillis);
    container.getDistribution(MetricName.named(NAMESPACE, "sizeBytes")).update(bytes);
    container.getGauge(MetricName.named(NAMESPACE, "lastCompleted")).set(epoch);
  }

  @Override
  public void epochGivenUp(long epoch, String reason) {
    container.getCounter(MetricName.named(NAMESPACE, "givenUp")).inc();
  }
}
