package io.arcon.runner.operators;

import org.apache.beam.runners.core.StatefulDoFnRunner.CleanupTimer;
import org.apache.beam.runners.core.StatefulDoFnRunner.TimeInternalsCleanupTimer;
import org.apache.beam.runners.core.TimerInternals;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;

/**
 * The stateful runner's garbage-collection timer, set for each element's window as runners-core's
 * {@link TimeInternalsCleanupTimer} does, except in the global window of a DoFn without
 * {@code @OnWindowExpiration}.
 *
 * <p>There the timer can only fire once the input watermark passes the end of the global window,
 * that is when every input has ended, and all it would do is clear state that nothing reads again.
 * Setting it is still a timer-store write (read, compare, maybe write) for every element, which
 * profiles of per-element state showed at a quarter of the stateful DoFn's time. A DoFn with
 * {@code @OnWindowExpiration} is called by that timer, so it keeps it.
 */
final class WindowCleanupTimer<InputT> implements CleanupTimer<InputT> {
  private final TimeInternalsCleanupTimer<InputT> timers;
  private final boolean globalWindowNeedsTimer;

  WindowCleanupTimer(
      TimerInternals timerInternals, WindowingStrategy<?, ?> windowingStrategy, DoFn<?, ?> fn) {
    this.timers = new TimeInternalsCleanupTimer<>(timerInternals, windowingStrategy);
    this.globalWindowNeedsTimer =
        DoFnSignatures.getSignature(fn.getClass()).onWindowExpiration() != null;
  }

  @Override
  public void setForWindow(InputT value, BoundedWindow window) {
    if (window instanceof GlobalWindow && !globalWindowNeedsTimer) {
      return;
    }
    timers.setForWindow(value, window);
  }

  @Override
  public boolean isForWindow(
      String timerId, BoundedWindow window, Instant timestamp, TimeDomain timeDomain) {
    return timers.isForWindow(timerId, window, timestamp, timeDomain);
  }
}
