package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UnboundedReadLimitsTest {
  @Test
  void recordsAreSharedEvenlyOverSplitsAndAddUpToTheLimit() {
    UnboundedReadSource.Limits limits = new UnboundedReadSource.Limits(10, Long.MAX_VALUE);
    long total = 0;
    for (int split = 0; split < 3; split++) {
      long share = limits.recordsForSplit(split, 3);
      assertEquals(split == 0 ? 4 : 3, share, "split " + split);
      total += share;
    }
    assertEquals(10, total);
  }

  @Test
  void fewerRecordsThanSplitsLeavesSomeSplitsEmpty() {
    UnboundedReadSource.Limits limits = new UnboundedReadSource.Limits(2, Long.MAX_VALUE);
    assertEquals(1, limits.recordsForSplit(0, 4));
    assertEquals(1, limits.recordsForSplit(1, 4));
    assertEquals(0, limits.recordsForSplit(2, 4));
    assertEquals(0, limits.recordsForSplit(3, 4));
  }

  @Test
  void noRecordLimitMeansUnlimitedPerSplit() {
    assertEquals(Long.MAX_VALUE, UnboundedReadSource.Limits.NONE.recordsForSplit(1, 2));
  }
}
