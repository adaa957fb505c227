package io.arcon.runtime.node.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WatermarkAlignmentTest {
  private final long[] channelWatermarks = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
  private final WatermarkAlignment<String> alignment =
      new WatermarkAlignment<>(3, ch -> channelWatermarks[ch], 1_000, 200, 0);

  /** Records a channel's watermark and the new minimum, as the node does. */
  private void watermark(int channel, long watermark, long now) {
    channelWatermarks[channel] = watermark;
    long min = Long.MAX_VALUE;
    for (long w : channelWatermarks) {
      min = Math.min(min, w);
    }
    alignment.inputWatermarkIs(min, now);
  }

  private List<String> drain(long now) {
    List<String> out = new ArrayList<>();
    String next;
    while ((next = alignment.nextReleased(now)) != null) {
      out.add(next);
    }
    return out;
  }

  @Test
  void holdsAChannelMoreThanTheDriftAheadAndReleasesItInOrderOnceTheOthersCatchUp() {
    watermark(0, 10_000, 0);
    watermark(1, 9_500, 0);
    watermark(2, 10_000, 0);
    assertFalse(alignment.holds(0), "500 ms ahead of the minimum is within the drift");
    watermark(0, 10_600, 1);
    assertTrue(alignment.holds(0), "1,100 ms ahead");
    assertFalse(alignment.holds(1), "the slowest channel is never held");
    alignment.hold(0, "a1");
    alignment.hold(0, "a2");
    assertTrue(alignment.isHolding());
    assertEquals(List.of(), drain(2), "still ahead");

    watermark(1, 9_550, 3);
    assertEquals(List.of(), drain(4), "10,600 is still more than 1,000 ms above 9,550");
    watermark(1, 9_600, 5);
    assertEquals(List.of("a1", "a2"), drain(6), "held input goes on oldest first");
    assertFalse(alignment.isHolding());
  }

  @Test
  void aChannelWithHeldInputKeepsHoldingWhateverFollowsItSoItsOrderStays() {
    watermark(1, 0, 0);
    watermark(2, 0, 0);
    watermark(0, 5_000, 0);
    alignment.hold(0, "a1");
    watermark(1, 4_500, 1);
    watermark(2, 4_500, 1);
    assertTrue(alignment.holds(0), "earlier input of the channel waits until it is released");
    assertEquals(List.of("a1"), drain(2));
    assertFalse(alignment.holds(0));
  }

  @Test
  void whenTheInputWatermarkStandsStillForTheIdleTimeEverythingGoesOnUntilItMovesAgain() {
    watermark(0, 5_000, 0);
    watermark(1, 1_000, 0);
    watermark(2, 1_000, 0);
    alignment.hold(0, "a1");
    assertEquals(200, alignment.deadline(), "looked at again when the idle time ends");
    assertEquals(List.of(), drain(199));
    assertEquals(List.of("a1"), drain(200), "the lagging channels may be idle sources");
    assertFalse(alignment.holds(0), "suspended while the input watermark stands still");
    assertEquals(Long.MAX_VALUE, alignment.deadline());

    watermark(1, 1_001, 300);
    watermark(2, 1_001, 300);
    assertTrue(alignment.holds(0), "holding resumes once the input watermark moved");
  }

  @Test
  void endedChannelsAndAnEndedInputAreNeverHeld() {
    watermark(0, Long.MAX_VALUE, 0);
    watermark(1, 0, 0);
    watermark(2, 0, 0);
    assertFalse(alignment.holds(0), "an ended channel sends nothing that could wait");
    watermark(1, Long.MAX_VALUE, 1);
    watermark(2, Long.MAX_VALUE, 1);
    assertFalse(alignment.holds(0));
  }

  @Test
  void noWatermarkYetHoldsTheChannelsThatSentOneAndSuspendReleasesThem() {
    watermark(0, 3_000, 0); // channels 1 and 2 sent nothing yet: the input watermark is -inf
    assertTrue(alignment.holds(0));
    alignment.hold(0, "a1");
    alignment.suspend();
    assertEquals(List.of("a1"), drain(1));
    assertNull(alignment.nextReleased(2));
  }

  @Test
  void refusesANegativeDrift() {
    assertThrows(
        IllegalArgumentException.class, () -> new WatermarkAlignment<>(1, ch -> 0, -1, 200, 0));
  }
}
