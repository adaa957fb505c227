package io.arcon.runner.metrics;

import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.sdk.metrics.MetricsContainer;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A metrics container that is the thread's current container during each test, standing for
 * whatever the thread had before an operator was called: code under test must give it back and must
 * not report into it. Register with {@code @RegisterExtension}.
 */
public final class OuterMetricsContainer implements BeforeEachCallback, AfterEachCallback {
  private final MetricsContainerImpl container = new MetricsContainerImpl("outer");
  private MetricsContainer before;

  public MetricsContainerImpl container() {
    return container;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    before = MetricsEnvironment.setCurrentContainer(container);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    MetricsEnvironment.setCurrentContainer(before);
  }
}
