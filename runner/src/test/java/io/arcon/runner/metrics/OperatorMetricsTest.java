package io.arcon.runner.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link OperatorMetrics#scoped}: user code outside the DoFn runner reports into the step. */
class OperatorMetricsTest {
  private final MetricsContainerStepMap stepMap = new MetricsContainerStepMap();
  private final OperatorMetrics metrics = new OperatorMetrics(stepMap, "Read");
  private final Counter counter = Metrics.counter(OperatorMetricsTest.class, "calls");
  @RegisterExtension final OuterMetricsContainer threadContainer = new OuterMetricsContainer();
  private final MetricsContainerImpl outer = threadContainer.container();

  @Test
  void workReportsIntoTheStepAndReturnsItsResult() throws Exception {
    String result =
        metrics.scoped(
            () -> {
              counter.inc();
              return "read";
            });
    metrics.scoped(() -> counter.inc(2));
    assertEquals("read", result);
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    assertEquals(3L, calls(stepMap.getContainer("Read")));
    assertEquals(0L, calls(outer));
  }

  @Test
  void failingWorkGivesTheThreadsContainerBack() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                metrics.scoped(
                    () -> {
                      counter.inc();
                      throw new IOException("source broke");
                    }));
    assertEquals("source broke", e.getMessage());
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    assertEquals(1L, calls(stepMap.getContainer("Read")));
  }

  @Test
  void scopesNest() throws Exception {
    OperatorMetrics downstream = new OperatorMetrics(stepMap, "Write");
    metrics.scoped(
        () -> {
          downstream.scoped(() -> counter.inc());
          // The inner scope gave the outer step back.
          counter.inc();
        });
    assertEquals(1L, calls(stepMap.getContainer("Read")));
    assertEquals(1L, calls(stepMap.getContainer("Write")));
  }

  private static long calls(MetricsContainerImpl container) {
    return container
        .getCounter(MetricName.named(OperatorMetricsTest.class, "calls"))
        .getCumulative();
  }
}
