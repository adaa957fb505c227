package io.arcon.runner.metrics;

import java.io.Closeable;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.metrics.MetricsEnvironment;

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

  /** Work that may report metrics. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws Exception;
  }

  /** Runs {@code work} with this step's container as the thread's current metrics container. */
  public <T> T scoped(Work<T> work) throws Exception {
    try (Closeable scope = MetricsEnvironment.scopedMetricsContainer(container)) {
      return work.run();
    }
  }
}
