package io.arcon.runner.operators;

import org.apache.beam.runners.core.LateDataUtils;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * A {@code @TimerId} parameter of one {@code @ProcessElement} call in {@link FastPathDoFnRunner}:
 * the timer of the element's key and window, with Beam's rules for when it may fire and what it
 * holds.
 *
 * <ul>
 *   <li>{@link #setRelative} counts from the domain's current time (the input watermark for event
 *       time), plus the offset, rounded up to the alignment period; an event-time target past the
 *       window's expiry is moved back to it.
 *   <li>Without {@link #withOutputTimestamp}, an event-time timer holds output at its firing time
 *       and a processing-time timer at the element's timestamp; {@link #withNoOutputTimestamp}
 *       holds nothing. The output timestamp, once taken, stays for later {@code set} calls on the
 *       same object, as runners-core's timer keeps it.
 *   <li>An explicit output timestamp must not be earlier than the element's timestamp minus the
 *       DoFn's allowed skew; neither it nor an event-time target may pass the window's expiry.
 * </ul>
 */
final class ProcessElementTimer implements Timer {
  private final DoFn<?, ?> fn;
  private final String timerId;
  private final TimeDomain domain;
  private final Duration allowedLateness;
  private final TimerInternals timerInternals;

  // The call's element; set by forElement.
  private BoundedWindow window;
  private StateNamespace namespace;
  private Instant elementTimestamp;

  // What the DoFn asked for in this call.
  private Instant target;
  private Instant outputTimestamp;
  private boolean noOutputTimestamp;
  private Duration period;
  private Duration offset;

  ProcessElementTimer(
      DoFn<?, ?> fn,
      String timerId,
      TimeDomain domain,
      Duration allowedLateness,
      TimerInternals timerInternals) {
    this.fn = fn;
    this.timerId = timerId;
    this.domain = domain;
    this.allowedLateness = allowedLateness;
    this.timerInternals = timerInternals;
  }

  /**
   * This timer as a parameter of a new {@code @ProcessElement} call: of the element's window and
   * timestamp, with nothing asked yet. One object serves call after call, as a DoFn may use a timer
   * parameter only during its call.
   */
  ProcessElementTimer forElement(
      BoundedWindow window, StateNamespace namespace, Instant elementTimestamp) {
    this.window = window;
    this.namespace = namespace;
    this.elementTimestamp = elementTimestamp;
    this.target = null;
    this.outputTimestamp = null;
    this.noOutputTimestamp = false;
    this.period = Duration.ZERO;
    this.offset = Duration.ZERO;
    return this;
  }

  @Override
  public void set(Instant absoluteTime) {
    target = absoluteTime;
    register();
  }

  @Override
  public void setRelative() {
    // Read once: the processing-time clock moves between reads.
    Instant now = getCurrentRelativeTime();
    Instant relative;
    if (period.equals(Duration.ZERO)) {
      relative = now.plus(offset);
    } else {
      long intoPeriod = now.plus(offset).getMillis() % period.getMillis();
      relative = intoPeriod == 0 ? now : now.plus(period).minus(Duration.millis(intoPeriod));
    }
    if (domain == TimeDomain.EVENT_TIME && relative.isAfter(expiry())) {
      relative = expiry();
    }
    target = relative;
    register();
  }

  @Override
  public void clear() {
    timerInternals.deleteTimer(namespace, timerId, "", domain);
  }

  @Override
  public Timer offset(Duration offset) {
    this.offset = offset;
    return this;
  }

  @Override
  public Timer align(Duration period) {
    this.period = period;
    return this;
  }

  @Override
  public Timer withOutputTimestamp(Instant outputTime) {
    this.outputTimestamp = outputTime;
    this.noOutputTimestamp = false;
    return this;
  }

  @Override
  public Timer withNoOutputTimestamp() {
    this.outputTimestamp = null;
    this.noOutputTimestamp = true;
    return this;
  }

  @Override
  public Instant getCurrentRelativeTime() {
    switch (domain) {
      case EVENT_TIME:
        return timerInternals.currentInputWatermarkTime();
      case PROCESSING_TIME:
        return timerInternals.currentProcessingTime();
      case SYNCHRONIZED_PROCESSING_TIME:
        Instant synchronizedTime = timerInternals.currentSynchronizedProcessingTime();
        if (synchronizedTime == null) {
          throw new IllegalStateException(
              "internal error: requested SYNCHRONIZED_PROCESSING_TIME but it was null");
        }
        return synchronizedTime;
      default:
        throw new IllegalStateException("Timer created for unknown time domain " + domain);
    }
  }

  private Instant expiry() {
    return LateDataUtils.garbageCollectionTime(window, allowedLateness);
  }

  /** Settles the output timestamp, checks it and the target, and sets the timer. */
  private void register() {
    if (outputTimestamp != null) {
      FastPathDoFnRunner.checkOutputTimestamp(
          fn, elementTimestamp, outputTimestamp, "output timer with output timestamp");
    } else if (!noOutputTimestamp) {
      outputTimestamp = domain == TimeDomain.EVENT_TIME ? target : elementTimestamp;
    }
    Instant holds;
    if (outputTimestamp != null) {
      Instant expiry = expiry();
      if (outputTimestamp.isAfter(expiry)) {
        throw new IllegalArgumentException(
            String.format(
                "Attempted to set %s timer with an output timestamp of %s that is after the"
                    + " expiration of window %s",
                domain == TimeDomain.EVENT_TIME ? "an event-time" : "a processing-time",
                outputTimestamp,
                expiry));
      }
      if (domain == TimeDomain.EVENT_TIME && target.isAfter(expiry)) {
        throw new IllegalArgumentException(
            String.format(
                "Attempted to set an event-time timer with a firing timestamp of %s that is after"
                    + " the expiration of window %s",
                target, expiry));
      }
      holds = outputTimestamp;
    } else {
      // No hold: past the end of time, where no watermark waits for it.
      holds = BoundedWindow.TIMESTAMP_MAX_VALUE.plus(Duration.millis(1));
      outputTimestamp = holds;
    }
    timerInternals.setTimer(namespace, timerId, "", target, holds, domain);
  }
}
