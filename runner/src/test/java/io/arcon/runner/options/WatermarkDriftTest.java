package io.arcon.runner.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WatermarkDriftTest {
  @Test
  void readsIsoDurationsOffAndTheDefault() {
    assertEquals(1_000, WatermarkDrift.parseMillis("PT1S", 7));
    assertEquals(250, WatermarkDrift.parseMillis(" PT0.25S ", 7));
    assertEquals(0, WatermarkDrift.parseMillis("PT0S", 7));
    assertEquals(-1, WatermarkDrift.parseMillis("OFF", 7));
    assertEquals(7, WatermarkDrift.parseMillis(null, 7));
  }

  @Test
  void aBadValueSaysWhatIsExpected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WatermarkDrift.parseMillis("1s", 7));
    assertTrue(e.getMessage().contains("--maxWatermarkDrift"), e.getMessage());
    assertTrue(e.getMessage().contains("PT1S"), e.getMessage());
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> WatermarkDrift.parseMillis("-PT1S", 7));
    assertTrue(negative.getMessage().contains("off"), negative.getMessage());
  }
}
