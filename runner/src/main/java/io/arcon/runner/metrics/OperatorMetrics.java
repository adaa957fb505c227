package io.arcon.runner.metrics;

import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;

/**
 * The Beam metrics container of one step. All parallel instances of the step share it: its cells
 * are thread-safe, and sharing makes the job's totals a plain read.
 */
public final class OperatorMetrics {
  private final MetricsContainerImpl container;

  public OperatorMetrics(MetricsContainerStepMap stepMap, String stepName) {
    synchronized (stepMap) {
      this.container = stepMap.getContainer(stepName);
    }
  }

  public MetricsContainerImpl container() {
    return container;
  }
}
