package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

/** The runtime's Pekko settings: its own defaults, under the JVM's system properties. */
class PekkoConfigTest {
  private static final String MAX =
      "pekko.actor.default-dispatcher.fork-join-executor.parallelism-max";

  @Test
  void theRuntimesOwnSettingsApply() {
    assertEquals(8, JobExecutor.pekkoConfig().getInt("pekko.actor.default-dispatcher.throughput"));
    assertEquals("WARNING", JobExecutor.pekkoConfig().getString("pekko.loglevel"));
  }

  @Test
  void aSystemPropertySizesTheNodesThreadPool() {
    String before = System.getProperty(MAX);
    System.setProperty(MAX, "3");
    try {
      ConfigFactory.invalidateCaches();
      assertEquals(3, JobExecutor.pekkoConfig().getInt(MAX));
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
