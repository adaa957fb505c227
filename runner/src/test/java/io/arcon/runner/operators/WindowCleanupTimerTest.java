package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.beam.runners.core.InMemoryTimerInternals;
import org.apache.beam.runners.core.StatefulDoFnRunner.TimeInternalsCleanupTimer;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class WindowCleanupTimerTest {

  static class Counting extends DoFn<KV<String, Integer>, Integer> {
    @StateId("count")
    private final StateSpec<ValueState<Integer>> count = StateSpecs.value(VarIntCoder.of());

    @ProcessElement
    public void process(@StateId("count") ValueState<Integer> count) {}
  }

  static class CountingWithExpiration extends DoFn<KV<String, Integer>, Integer> {
    @StateId("count")
    private final StateSpec<ValueState<Integer>> count = StateSpecs.value(VarIntCoder.of());

    @ProcessElement
    public void process(@StateId("count") ValueState<Integer> count) {}

    @OnWindowExpiration
    public void expired(@StateId("count") ValueState<Integer> count) {}
  }

  @Test
  void noTimerInTheGlobalWindowWithoutOnWindowExpiration() {
    InMemoryTimerInternals timers = new InMemoryTimerInternals();
    new WindowCleanupTimer<KV<String, Integer>>(
            timers, WindowingStrategy.globalDefault(), new Counting())
        .setForWindow(KV.of("k", 1), GlobalWindow.INSTANCE);
    assertNull(timers.getNextTimer(TimeDomain.EVENT_TIME));
  }

  @Test
  void theGlobalWindowKeepsItsTimerForOnWindowExpiration() {
    InMemoryTimerInternals timers = new InMemoryTimerInternals();
    new WindowCleanupTimer<KV<String, Integer>>(
            timers, WindowingStrategy.globalDefault(), new CountingWithExpiration())
        .setForWindow(KV.of("k", 1), GlobalWindow.INSTANCE);
    TimerData timer = due(timers);
    assertEquals(TimeInternalsCleanupTimer.GC_TIMER_ID, timer == null ? null : timer.getTimerId());
  }

  @Test
  void otherWindowsGetRunnersCoreTimer() {
    WindowingStrategy<?, ?> fixed = WindowingStrategy.of(FixedWindows.of(Duration.millis(10)));
    IntervalWindow window = new IntervalWindow(new Instant(0), new Instant(10));
    InMemoryTimerInternals ours = new InMemoryTimerInternals();
    InMemoryTimerInternals runnersCore = new InMemoryTimerInternals();
    WindowCleanupTimer<KV<String, Integer>> cleanup =
        new WindowCleanupTimer<>(ours, fixed, new Counting());
    cleanup.setForWindow(KV.of("k", 1), window);
    new TimeInternalsCleanupTimer<KV<String, Integer>>(runnersCore, fixed)
        .setForWindow(KV.of("k", 1), window);
    TimerData expected = due(runnersCore);
    assertEquals(expected, due(ours));
    assertTrue(
        cleanup.isForWindow(
            expected.getTimerId(), window, expected.getTimestamp(), TimeDomain.EVENT_TIME));
  }

  /** The first event timer once every one is due (the in-memory store hands out due ones only). */
  private static TimerData due(InMemoryTimerInternals timers) {
    try {
      timers.advanceInputWatermark(BoundedWindow.TIMESTAMP_MAX_VALUE);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return timers.removeNextEventTimer();
  }
}
