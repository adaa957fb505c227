package io.arcon.runner.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadProgressTest {

  @Test
  void totalsAddTheInstancesOfEverySource() {
    ReadProgress progress = new ReadProgress();
    String read1 = "Read1";
    String read2 = "Read2";
    List<SourceProgress> live =
        List.of(
            progress.register(read1, 0, true),
            progress.register(read1, 1, true),
            progress.register(read2, 0, true));
    long[] elements = {10, 20, 30};
    long[] bytes = {100, 200, 300};
    long[] sizes = {1_000, 3_000, 6_000};
    for (int i = 0; i < live.size(); i++) {
      live.get(i).estimatedBytes(sizes[i]);
      live.get(i).read(elements[i], bytes[i]);
    }
    assertEquals(new ReadProgress.Totals(3, false, 60, 600, 10_000), progress.total());
    assertEquals(6, progress.total().percent());
  }

  @Test
  void aRestartedInstanceReplacesTheFiguresOfTheAttemptBefore() {
    ReadProgress progress = new ReadProgress();
    String read = "Read";
    SourceProgress first = progress.register(read, 0, true);
    first.estimatedBytes(500);
    first.read(40, 400);
    SourceProgress second = progress.register(read, 0, true);
    assertNotSame(first, second);
    second.estimatedBytes(500);
    second.read(5, 50);
    first.read(45, 450); // the old attempt's last poll, after the restart: not counted
    assertEquals(new ReadProgress.Totals(1, false, 5, 50, 500), progress.total());
  }

  @Test
  void stepsAreToldApartByName() {
    ReadProgress progress = new ReadProgress();
    progress.register("ReadA", 0, true).read(1, 0);
    progress.register("ReadB", 0, true).read(2, 0);
    progress.register(new String("ReadA"), 1, true).read(4, 0);
    assertEquals(3, progress.total().sources());
    assertEquals(7, progress.total().elements());
  }

  @Test
  void oneInstanceWithoutAnEstimateLeavesTheJobWithout() {
    ReadProgress progress = new ReadProgress();
    String read = "Read";
    SourceProgress known = progress.register(read, 0, true);
    known.estimatedBytes(100);
    known.read(1, 50);
    SourceProgress opening = progress.register(read, 1, true); // estimate not computed yet
    ReadProgress.Totals totals = progress.total();
    assertEquals(SourceProgress.UNKNOWN, totals.estimatedBytes());
    assertEquals(SourceProgress.UNKNOWN, totals.bytesRead());
    assertEquals(-1, totals.percent());
    opening.estimatedBytes(300);
    opening.read(0, 0);
    assertEquals(new ReadProgress.Totals(2, false, 1, 50, 400), progress.total());
  }

  @Test
  void anUnboundedSourceMakesTheJobSizeless() {
    ReadProgress progress = new ReadProgress();
    SourceProgress file = progress.register("ReadFile", 0, true);
    file.estimatedBytes(100);
    file.read(10, 100);
    progress.register("ReadStream", 0, false).read(7, SourceProgress.UNKNOWN);
    ReadProgress.Totals totals = progress.total();
    assertTrue(totals.unbounded());
    assertEquals(17, totals.elements());
    assertEquals(SourceProgress.UNKNOWN, totals.bytesRead());
    assertEquals(SourceProgress.UNKNOWN, totals.estimatedBytes());
    assertEquals(-1, totals.percent());
  }

  @Test
  void percentIsRoundedDownAndAtMostAHundred() {
    assertEquals(0, new ReadProgress.Totals(1, false, 0, 0, 1_000).percent());
    assertEquals(99, new ReadProgress.Totals(1, false, 0, 999, 1_000).percent());
    assertEquals(100, new ReadProgress.Totals(1, false, 0, 1_000, 1_000).percent());
    // A source may read past its estimate.
    assertEquals(100, new ReadProgress.Totals(1, false, 0, 5_000, 1_000).percent());
    // Nothing to measure against.
    assertEquals(-1, new ReadProgress.Totals(1, false, 0, 0, 0).percent());
    assertFalse(new ReadProgress.Totals(0, false, 0, 0, 0).unbounded());
  }
}
