package io.arcon.runner.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MetricsWorkScope} around a node's work: steps entered inside it report into their own
 * containers, reports between steps go to the thread's earlier container, and the thread gets its
 * container back when the work ends, also when it fails.
 */
class MetricsWorkScopeTest {
  private final MetricsContainerStepMap stepMap = new MetricsContainerStepMap();
  private final OperatorMetrics read = new OperatorMetrics(stepMap, "Read");
  private final OperatorMetrics write = new OperatorMetrics(stepMap, "Write");
  private final Counter counter = Metrics.counter(MetricsWorkScopeTest.class, "calls");
  @RegisterExtension final OuterMetricsContainer threadContainer = new OuterMetricsContainer();
  private final MetricsContainerImpl outer = threadContainer.container();

  @Test
  void stepsInsideTheWorkReportIntoTheirOwnContainers() throws Exception {
    Object token = MetricsWorkScope.INSTANCE.enter();
    try {
      for (int element = 0; element < 3; element++) {
        read.scoped(() -> write.scoped(() -> counter.inc()));
        read.scoped(() -> counter.inc(10));
      }
      counter.inc(100);
    } finally {
      MetricsWorkScope.INSTANCE.exit(token);
    }
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    assertEquals(30L, calls(stepMap.getContainer("Read")));
    assertEquals(3L, calls(stepMap.getContainer("Write")));
    assertEquals(100L, calls(outer));
  }

  @Test
  void countersOfSeveralNamesAndStepsInterleavedEachCountTheirOwn() throws Exception {
    Counter bytes = Metrics.counter(MetricsWorkScopeTest.class, "bytes");
    Counter misses = Metrics.counter(MetricsWorkScopeTest.class, "misses");
    OperatorMetrics map = new OperatorMetrics(stepMap, "Map");
    Object token = MetricsWorkScope.INSTANCE.enter();
    try {
      for (int element = 1; element <= 5; element++) {
        long n = element;
        read.scoped(
            () -> {
              counter.inc();
              bytes.inc(n);
              write.scoped(
                  () -> {
                    counter.inc(2);
                    misses.inc();
                    map.scoped(() -> bytes.inc(100));
                    misses.inc(3);
                  });
              counter.inc();
            });
        misses.inc(1000);
      }
    } finally {
      MetricsWorkScope.INSTANCE.exit(token);
    }
    MetricsContainerImpl readContainer = stepMap.getContainer("Read");
    MetricsContainerImpl writeContainer = stepMap.getContainer("Write");
    MetricsContainerImpl mapContainer = stepMap.getContainer("Map");
    assertEquals(10L, count(readContainer, "calls"));
    assertEquals(15L, count(readContainer, "bytes"));
    assertEquals(0L, count(readContainer, "misses"));
    assertEquals(10L, count(writeContainer, "calls"));
    assertEquals(20L, count(writeContainer, "misses"));
    assertEquals(0L, count(writeContainer, "bytes"));
    assertEquals(500L, count(mapContainer, "bytes"));
    assertEquals(5000L, count(outer, "misses"));
  }

  @Test
  void manyCountersAndCountersMadePerElementAddUpWhenTheWorkEnds() throws Exception {
    // More counters than the switch keeps at once, some made anew for every element (a name object
    // each time), from two threads into the same steps: every count arrives once.
    Body work =
        () -> {
          Object token = MetricsWorkScope.INSTANCE.enter();
          try {
            for (int element = 0; element < 1000; element++) {
              int e = element;
              read.scoped(
                  () -> {
                    Metrics.counter(MetricsWorkScopeTest.class, "c" + (e % 40)).inc();
                    Metrics.counter(MetricsWorkScopeTest.class, "perElement").inc(2);
                    write.scoped(() -> counter.inc());
                  });
              counter.dec();
            }
          } finally {
            MetricsWorkScope.INSTANCE.exit(token);
          }
        };
    Thread other = new Thread(() -> uncheck(work));
    other.start();
    work.run();
    other.join();
    MetricsContainerImpl readContainer = stepMap.getContainer("Read");
    for (int c = 0; c < 40; c++) {
      assertEquals(2 * 25L, count(readContainer, "c" + c), "c" + c);
    }
    assertEquals(2 * 2000L, count(readContainer, "perElement"));
    assertEquals(2 * 1000L, calls(stepMap.getContainer("Write")));
    // Outside the steps: this thread's own container; the other thread had none (dropped).
    assertEquals(-1000L, calls(outer));
  }

  @Test
  void aCounterKeptPastTheWorkStillCounts() throws Exception {
    // Code that keeps the container's counter instead of asking again per call (as Beam's
    // DelegatingCounter does) must not lose what it counts after the work ends.
    MetricName calls = MetricName.named(MetricsWorkScopeTest.class, "calls");
    Counter kept;
    Object token = MetricsWorkScope.INSTANCE.enter();
    try {
      kept =
          read.scoped(
              () -> {
                Counter c = MetricsEnvironment.getCurrentContainer().getCounter(calls);
                c.inc(2);
                return c;
              });
    } finally {
      MetricsWorkScope.INSTANCE.exit(token);
    }
    assertEquals(2L, calls(stepMap.getContainer("Read")));
    kept.inc(3);
    kept.dec();
    assertEquals(4L, calls(stepMap.getContainer("Read")));
  }

  private static long count(MetricsContainerImpl container, String name) {
    Long value =
        container.getCounter(MetricName.named(MetricsWorkScopeTest.class, name)).getCumulative();
    return value == null ? 0L : value;
  }

  @Test
  void failingWorkLeavesTheThreadAsItWas() {
    Object token = MetricsWorkScope.INSTANCE.enter();
    try {
      assertThrows(
          IllegalStateException.class,
          () ->
              read.scoped(
                  () -> {
                    throw new IllegalStateException("boom");
                  }));
      counter.inc();
    } finally {
      MetricsWorkScope.INSTANCE.exit(token);
    }
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    assertEquals(1L, calls(outer));
    assertEquals(0L, calls(stepMap.getContainer("Read")));
  }

  @Test
  void eachThreadHasItsOwnSwitch() throws Exception {
    Object token = MetricsWorkScope.INSTANCE.enter();
    try {
      read.scoped(
          () -> {
            Thread other = new Thread(() -> uncheck(() -> write.scoped(() -> counter.inc(5))));
            other.start();
            other.join();
            counter.inc();
          });
    } finally {
      MetricsWorkScope.INSTANCE.exit(token);
    }
    assertEquals(1L, calls(stepMap.getContainer("Read")));
    assertEquals(5L, calls(stepMap.getContainer("Write")));
  }

  @Test
  void aSwitchLeftInstalledByOtherCodeDoesNotForwardToItself() throws Exception {
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread other =
        new Thread(
            () -> {
              try {
                StepContainerSwitch sw = StepContainerSwitch.ofCurrentThread();
                MetricsEnvironment.setCurrentContainer(sw);
                org.apache.beam.sdk.metrics.MetricsContainer outer = sw.enter(null);
                counter.inc();
                read.scoped(() -> counter.inc(7));
                sw.exit(outer);
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    other.start();
    other.join();
    assertEquals(null, failure.get());
    assertEquals(7L, calls(stepMap.getContainer("Read")));
  }

  private interface Body {
    void run() throws Exception;
  }

  private static void uncheck(Body body) {
    try {
      body.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static long calls(MetricsContainerImpl container) {
    return count(container, "calls");
  }
}
