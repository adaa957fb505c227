package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

/** The runtime's Pekko settings: its own defaults, under the JVM's system properties. */
class PekkoConfigTest {
  private static final String MAX = NodeThreads.DISPATCHER + ".sticky-executor.threads";

  @Test
  void theRuntimesOwnSettingsApply() {
    var config = JobExecutor.pekkoConfig(NodeThreads.DEFAULT, null);
    assertEquals(8, config.getInt("pekko.actor.default-dispatcher.throughput"));
    assertEquals(8, config.getInt(NodeThreads.DISPATCHER + ".throughput"));
    assertEquals("WARNING", config.getString("pekko.loglevel"));
    assertEquals(
        java.time.Duration.ofMillis(1), config.getDuration("pekko.scheduler.tick-duration"));
  }

  @Test
  void aSystemPropertyOverridesTheNodesThreadPool() {
    String before = System.getProperty(MAX);
    System.setProperty(MAX, "3");
    try {
      ConfigFactory.invalidateCaches();
      assertEquals(3, JobExecutor.pekkoConfig(new NodeThreads(true, 2), null).getInt(MAX));
    } finally {
      if (before == null) {
        System.clearProperty(MAX);
      } else {
        System.setProperty(MAX, before);
      }
      ConfigFactory.invalidateCaches();
    }
  }
}
