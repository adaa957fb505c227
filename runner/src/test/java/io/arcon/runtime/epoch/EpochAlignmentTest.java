package io.arcon.runtime.epoch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EpochAlignmentTest {
  private final boolean[] ended = new boolean[3];
  private final EpochAlignment<String> alignment = new EpochAlignment<>(3, ch -> ended[ch]);

  @Test
  void holdsAChannelFromItsMarkerUntilEveryChannelDeliveredIt() {
    assertFalse(alignment.holds(0));
    assertEquals(EpochAlignment.Outcome.ALIGNING, alignment.onMarker(0, 1));
    assertTrue(alignment.holds(0));
    assertFalse(alignment.holds(1));
    alignment.hold("a");
    assertEquals(EpochAlignment.Outcome.ALIGNING, alignment.onMarker(2, 1));
    alignment.hold("b");
    assertEquals(EpochAlignment.Outcome.ALIGNED, alignment.onMarker(1, 1));
    assertEquals(List.of("a", "b"), alignment.release());
    assertFalse(alignment.holds(0));
    assertEquals(0, alignment.aligningEpoch());
  }

  @Test
  void anEndedChannelCountsAsAligned() {
    ended[2] = true;
    assertEquals(EpochAlignment.Outcome.ALIGNING, alignment.onMarker(0, 4));
    assertFalse(alignment.onChannelEnded());
    ended[1] = true;
    assertTrue(alignment.onChannelEnded());
  }

  @Test
  void anEndedChannelWithoutAlignmentCompletesNothing() {
    ended[0] = true;
    assertFalse(alignment.onChannelEnded());
  }

  @Test
  void refusesOverlappingOrRepeatedEpochs() {
    alignment.onMarker(0, 1);
    assertThrows(IllegalStateException.class, () -> alignment.onMarker(0, 1));
    assertThrows(IllegalStateException.class, () -> alignment.onMarker(1, 2));
    alignment.onMarker(1, 1);
    alignment.onMarker(2, 1);
    alignment.release();
    assertThrows(IllegalStateException.class, () -> alignment.onMarker(0, 1));
    assertEquals(EpochAlignment.Outcome.ALIGNING, alignment.onMarker(0, 2));
  }
}
