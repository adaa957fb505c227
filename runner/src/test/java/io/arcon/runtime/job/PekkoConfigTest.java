package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import org.junit.jupiter.api.Test;

/** The node dispatcher's size: one thread per core by default, raised by a system property. */
class PekkoConfigTest {
  private static final String MIN =
      "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min";

  @Test
  void oneThreadPerCoreWithAtLeastTwo() {
    Config config = JobExecutor.pekkoConfig();
    assertEquals(2, config.getInt(MIN));
    assertEquals(
        1.0,
        config.getDouble("pekko.actor.default-dispatcher.fork-join-executor.parallelism-factor"));
  }

  @Test
  void aSystemPropertyRaisesTheMinimumForBlockingUserCode() {
    String before = System.getProperty(MIN);
    System.setProperty(MIN, "12");
    try {
      com.typesafe.config.ConfigFactory.invalidateCaches();
      assertEquals(12, JobExecutor.pekkoConfig().getInt(MIN));
    } finally {
      if (before == null) {
        System.clearProperty(MIN);
      } else {
        System.setProperty(MIN, before);
      }
      com.typesafe.config.ConfigFactory.invalidateCaches();
    }
  }
}
