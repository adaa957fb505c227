package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class MergingWindowsTest {
  @SuppressWarnings("unchecked")
  private static final Coder<BoundedWindow> WINDOW_CODER =
      (Coder<BoundedWindow>) (Coder<?>) IntervalWindow.getCoder();

  private static IntervalWindow window(long start, long end) {
    return new IntervalWindow(new Instant(start), new Instant(end));
  }

  /** Small bounds, so that equal starts, equal ends, touching and nested windows all come up. */
  private static IntervalWindow randomWindow(Random random) {
    long start = random.nextInt(20);
    return window(start, start + 1 + random.nextInt(10));
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSessionShortcutAsksForWhatSessionsItselfAsksFor() throws Exception {
    WindowFn<Object, BoundedWindow> sessions =
        (WindowFn<Object, BoundedWindow>)
            (WindowFn<?, ?>) Sessions.withGapDuration(Duration.millis(5));
    Random random = new Random(20261206);
    int merged = 0;
    for (int i = 0; i < 20_000; i++) {
      IntervalWindow active = randomWindow(random);
      IntervalWindow added = random.nextInt(10) == 0 ? active : randomWindow(random);
      MergingWindows windows = MergingWindows.empty();
      windows.activate(active, active);
      List<MergingWindows.Merge> expected =
          windows.mergesOfWindowFn(sessions, List.of((BoundedWindow) added));
      assertEquals(expected, MergingWindows.sessionMerges(active, added), active + " + " + added);
      // merges() takes the shortcut for this case
      assertEquals(expected, windows.merges(sessions, List.of((BoundedWindow) added)));
      merged += expected.size();
    }
    assertTrue(merged > 5_000 && merged < 19_000, "both outcomes were tried: " + merged);
  }

  @Test
  void panesAndWindowsSurviveTheCoder() throws Exception {
    MergingWindows windows = MergingWindows.empty();
    IntervalWindow session = window(0, 30);
    IntervalWindow stateWindow = window(0, 10);
    IntervalWindow other = window(100, 110);
    IntervalWindow pending = window(200, 210);
    windows.activate(session, stateWindow);
    windows.activate(other, other);
    windows.addClosed(window(50, 60));
    WindowPaneState pane = new WindowPaneState();
    pane.nonEmpty = true;
    pane.early.count = 3;
    pane.late.hasDelay = true;
    pane.late.delayedUntil = 12345;
    pane.lastPane = PaneInfo.createPane(false, false, PaneInfo.Timing.EARLY, 4, -1);
    windows.putPane(stateWindow, pane);
    WindowPaneState closed = new WindowPaneState();
    closed.closed = true;
    closed.onTimeFired = true;
    // A pane of a window that is not (yet) active is kept too, with its window spelled out.
    windows.putPane(pending, closed);

    MergingWindows.SetCoder coder = new MergingWindows.SetCoder(WINDOW_CODER);
    MergingWindows decoded = CoderUtils.clone(coder, windows);

    assertEquals(stateWindow, decoded.stateWindowOf(session));
    assertEquals(other, decoded.stateWindowOf(other));
    assertTrue(decoded.isClosed(window(50, 60)));
    WindowPaneState back = decoded.pane(stateWindow);
    assertTrue(back.nonEmpty);
    assertEquals(3, back.early.count);
    assertTrue(back.late.hasDelay);
    assertEquals(12345, back.late.delayedUntil);
    assertEquals(pane.lastPane, back.lastPane);
    assertTrue(decoded.pane(pending).closed);
    assertNull(decoded.pane(other));
    // A read is a copy: changing it changes nothing stored until putPane.
    back.early.count = 99;
    assertEquals(3, decoded.pane(stateWindow).early.count);
    decoded.clearPane(stateWindow);
    assertNull(decoded.pane(stateWindow));
    assertEquals(
        CoderUtils.encodeToBase64(coder, decoded),
        CoderUtils.encodeToBase64(coder, CoderUtils.clone(coder, decoded)));
  }

  @Test
  void aPaneNamingAStateWindowThatIsNotThereIsRefused() throws Exception {
    MergingWindows windows = MergingWindows.empty();
    windows.activate(window(0, 10), window(0, 10));
    windows.putPane(window(0, 10), new WindowPaneState());
    MergingWindows.SetCoder coder = new MergingWindows.SetCoder(WINDOW_CODER);
    byte[] bytes = CoderUtils.encodeToByteArray(coder, windows);
    // The pane's reference is the byte after the pane count: state window 1 of 1 is out of range.
    int reference = bytes.length - 1 - paneBytes(new WindowPaneState());
    assertEquals(1, bytes[reference]);
    bytes[reference] = 2;
    CoderException e =
        assertThrows(CoderException.class, () -> CoderUtils.decodeFromByteArray(coder, bytes));
    assertTrue(e.getMessage().contains("names state window 1 of 1"), e.getMessage());
  }

  private static int paneBytes(WindowPaneState pane) throws Exception {
    return CoderUtils.encodeToByteArray(WindowPaneState.StateCoder.INSTANCE, pane).length;
  }
}
