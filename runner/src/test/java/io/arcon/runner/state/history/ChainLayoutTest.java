package io.arcon.runner.state.history;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Segments and entries of the chain layout, at the edges of the time range. */
class ChainLayoutTest {

  @Test
  void segmentsAreThePruneStepWide() {
    assertEquals(0, ChainLayout.segmentMillis(0));
    assertEquals(450_000, ChainLayout.segmentMillis(450_000));
    for (long stamp : new long[] {Long.MIN_VALUE + 1, -1, 0, 1_767_225_600_123L, Long.MAX_VALUE}) {
      assertEquals(ChainLayout.LIVE_SEGMENT, ChainLayout.segmentOf(stamp, 0));
    }
    assertEquals(1_767_225_600_000L, ChainLayout.segmentOf(1_767_225_600_999L, 1000));
    assertEquals(1_767_225_601_000L, ChainLayout.segmentOf(1_767_225_601_000L, 1000));
    assertEquals(-1000, ChainLayout.segmentOf(-1, 1000));
    assertEquals(
        Long.MAX_VALUE - Long.MAX_VALUE % 1000, ChainLayout.segmentOf(Long.MAX_VALUE, 1000));
    // Rounding down near the start of time would pass Long.MIN_VALUE: those stay live, above the
    // base segment.
    assertEquals(ChainLayout.LIVE_SEGMENT, ChainLayout.segmentOf(Long.MIN_VALUE, 1000));
    assertEquals(ChainLayout.LIVE_SEGMENT, ChainLayout.segmentOf(Long.MIN_VALUE + 999, 1000));
    assertTrue(ChainLayout.segmentOf(Long.MIN_VALUE + 5000, 1000) > ChainLayout.BASE_STAMP);
  }

  @Test
  void entriesCarryTheirStampAndOpAndAreRestamped() {
    byte[] put = ChainLayout.entry(-42, new byte[] {1, 2, 3});
    assertEquals(-42, ChainLayout.entryStamp(put));
    assertArrayEquals(new byte[] {1, 2, 3}, ChainLayout.op(put));
    assertFalse(ChainLayout.isDelete(put));
    byte[] delete = ChainLayout.entry(7, new byte[0]);
    assertTrue(ChainLayout.isDelete(delete));
    byte[] base = ChainLayout.restamped(put, ChainLayout.BASE_STAMP);
    assertEquals(ChainLayout.BASE_STAMP, ChainLayout.entryStamp(base));
    assertArrayEquals(ChainLayout.op(put), ChainLayout.op(base));
    assertEquals(-42, ChainLayout.entryStamp(put), "restamping copies");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> ChainLayout.entryStamp(new byte[3]));
    assertTrue(e.getMessage().contains("shorter than its stamp"), e.getMessage());
  }
}
