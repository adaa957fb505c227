package io.arcon.runner.metrics;

import io.arcon.runtime.node.NodeWorkScope;
import org.apache.beam.sdk.metrics.MetricsContainer;

/**
 * Installs the thread's {@link StepContainerSwitch} around each piece of a node's work, so the
 * steps of its chain enter their metrics containers by a field swap per element instead of setting
 * Beam's thread-local container per element.
 */
public final class MetricsWorkScope implements NodeWorkScope {
  public static final MetricsWorkScope INSTANCE = new MetricsWorkScope();

  private MetricsWorkScope() {}

  @Override
  public Object enter() {
    return StepContainerSwitch.ofCurrentThread().enter(null);
  }

  @Override
  public void exit(Object token) {
    StepContainerSwitch.ofCurrentThread().exit((MetricsContainer) token);
  }
}
