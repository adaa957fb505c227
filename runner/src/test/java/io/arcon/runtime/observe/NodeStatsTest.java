package io.arcon.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NodeStatsTest {

  @Test
  void countsAddUpAndAreReadFromAnotherThread() throws Exception {
    NodeStats stats = NodeStats.unobserved(3, 1);
    stats.started();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; i < 1000; i++) {
                stats.recordsIn(512);
                stats.recordsOut(2 * 512);
              }
              stats.inputWatermark(42);
              stats.outputWatermark(41);
            });
    writer.start();
    writer.join();
    NodeStats.Sample s = stats.sample();
    assertEquals(3, s.vertexId());
    assertEquals(1, s.instance());
    assertEquals(512_000, s.recordsIn());
    assertEquals(1_024_000, s.recordsOut());
    assertEquals(42, s.inputWatermark());
    assertEquals(41, s.outputWatermark());
    assertEquals(NodeStats.Status.RUNNING, s.status());
  }

  @Test
  void blockedTimeCountsFromBlockedToUnblockedAndWhileStillBlocked() throws Exception {
    NodeStats stats = NodeStats.unobserved(0, 0);
    stats.started();
    assertEquals(0, stats.sample().blockedNanos());

    long before = System.nanoTime();
    stats.outputBlocked(true);
    TimeUnit.MILLISECONDS.sleep(20);
    long whileBlocked = stats.sample().blockedNanos();
    // Still blocked: the reader adds the open interval.
    assertTrue(whileBlocked >= TimeUnit.MILLISECONDS.toNanos(20), "got " + whileBlocked);

    stats.outputBlocked(true); // a second blocked report does not restart the interval
    stats.outputBlocked(false);
    long after = System.nanoTime();
    long closed = stats.sample().blockedNanos();
    assertTrue(closed >= whileBlocked && closed <= after - before, "got " + closed);

    // Unblocked: the total stays put.
    TimeUnit.MILLISECONDS.sleep(5);
    assertEquals(closed, stats.sample().blockedNanos());
  }

  @Test
  void endingClosesAnOpenBlockedInterval() {
    NodeStats stats = NodeStats.unobserved(0, 0);
    stats.started();
    stats.outputBlocked(true);
    stats.ended(NodeStats.Status.FINISHED);
    long total = stats.sample().blockedNanos();
    assertEquals(total, stats.sample().blockedNanos());
    assertEquals(NodeStats.Status.FINISHED, stats.sample().status());
  }

  @Test
  void aFinishedOrFailedInstanceIsNotTurnedIntoCancelled() {
    NodeStats finished = NodeStats.unobserved(0, 0);
    finished.started();
    finished.ended(NodeStats.Status.FINISHED);
    finished.endedIfRunning(NodeStats.Status.CANCELLED);
    assertEquals(NodeStats.Status.FINISHED, finished.sample().status());

    NodeStats running = NodeStats.unobserved(0, 1);
    running.started();
    running.endedIfRunning(NodeStats.Status.CANCELLED);
    assertEquals(NodeStats.Status.CANCELLED, running.sample().status());
  }

  @Test
  void stateIsSampledAtMostOnceAPeriod() {
    NodeStats stats = NodeStats.unobserved(0, 0);
    assertEquals(-1, stats.sample().stateBytes());
    assertEquals("", stats.sample().stateEngines());
    assertTrue(stats.stateSampleDue());
    assertFalse(stats.stateSampleDue());
    stats.state("heap,rocksdb", 4096);
    assertEquals("heap,rocksdb", stats.sample().stateEngines());
    assertEquals(4096, stats.sample().stateBytes());
  }
}
