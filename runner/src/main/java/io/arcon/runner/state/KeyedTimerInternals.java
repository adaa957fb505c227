package io.arcon.runner.state;

import java.util.Objects;
import java.util.function.LongSupplier;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * The {@link TimerInternals} a DoFn runner sees: timers of the key that is current in the given
 * {@link BackendStateInternals}, stored in a {@link TimerStore}, and the clocks the runtime sets
 * before each bundle or element.
 */
public final class KeyedTimerInternals implements TimerInternals {
  private final TimerStore store;
  private final BackendStateInternals<?> state;

  private Instant inputWatermark = BoundedWindow.TIMESTAMP_MIN_VALUE;
  // Null until known, as TimerInternals#currentOutputWatermarkTime allows.
  private Instant outputWatermark = null;
  private Instant processingTime = BoundedWindow.TIMESTAMP_MIN_VALUE;
  private Instant synchronizedProcessingTime = BoundedWindow.TIMESTAMP_MIN_VALUE;

  /** When set, {@link #currentProcessingTime} reads this clock; null: {@link #processingTime}. */
  private LongSupplier processingClock;

  /**
   * When set, {@link #currentSynchronizedProcessingTime} reads this clock; null: {@link
   * #synchronizedProcessingTime}.
   */
  private LongSupplier synchronizedClock;

  public KeyedTimerInternals(TimerStore store, BackendStateInternals<?> state) {
    this.store = Objects.requireNonNull(store, "store");
    this.state = Objects.requireNonNull(state, "state");
  }

  public void setInputWatermark(Instant inputWatermark) {
    this.inputWatermark = inputWatermark;
  }

  public void setOutputWatermark(Instant outputWatermark) {
    this.outputWatermark = outputWatermark;
  }

  /** Fixes processing time at {@code processingTime} (a timer firing) until changed again. */
  public void setProcessingTime(Instant processingTime) {
    this.processingTime = processingTime;
    this.processingClock = null;
  }

  /**
   * Processing time follows {@code clock} (epoch millis), read when user code or a trigger asks for
   * it rather than set per element: most elements never look at it, and a clock read per element
   * was about 3% of a stateful DoFn's time. Holds until {@link #setProcessingTime}.
   */
  public void followProcessingClock(LongSupplier clock) {
    this.processingClock = clock;
  }

  /** Fixes synchronized processing time (a timer firing, a watermark) until changed again. */
  public void setSynchronizedProcessingTime(Instant synchronizedProcessingTime) {
    this.synchronizedProcessingTime = synchronizedProcessingTime;
    this.synchronizedClock = null;
  }

  /**
   * Synchronized processing time follows {@code clock} (epoch millis), read when asked, as {@link
   * #followProcessingClock}: set per element, it was a clock read per element that almost no
   * trigger looks at (3% of a GroupByKey with a processing-time trigger, Nexmark Q12). Holds until
   * {@link #setSynchronizedProcessingTime}.
   */
  public void followSynchronizedClock(LongSupplier clock) {
    this.synchronizedClock = clock;
  }

  private byte[] currentKey() {
    byte[] key = state.getEncodedKey();
    if (key == null) {
      throw new IllegalStateException(
          "Timers are keyed: the runtime must call setKey on the state internals before a DoFn"
              + " sets or deletes a timer");
    }
    return key;
  }

  @Override
  public void setTimer(
      StateNamespace namespace,
      String timerId,
      String timerFamilyId,
      Instant target,
      Instant outputTimestamp,
      TimeDomain timeDomain) {
    setTimer(TimerData.of(timerId, timerFamilyId, namespace, target, outputTimestamp, timeDomain));
  }

  @Override
  public void setTimer(TimerData timerData) {
    store.setTimer(currentKey(), timerData);
  }

  @Override
  public void deleteTimer(
      StateNamespace namespace, String timerId, String timerFamilyId, TimeDomain timeDomain) {
    store.deleteTimer(currentKey(), namespace, timerId, timerFamilyId, timeDomain);
  }

  @Override
  public void deleteTimer(StateNamespace namespace, String timerId, String timerFamilyId) {
    store.deleteTimer(currentKey(), namespace, timerId, timerFamilyId, TimeDomain.EVENT_TIME);
  }

  @Override
  public void deleteTimer(TimerData timerKey) {
    store.deleteTimer(
        currentKey(),
        timerKey.getNamespace(),
        timerKey.getTimerId(),
        timerKey.getTimerFamilyId(),
        timerKey.getDomain());
  }

  @Override
  public Instant currentProcessingTime() {
    LongSupplier clock = processingClock;
    if (clock != null) {
      long nowMillis = clock.getAsLong();
      // Within one millisecond the same Instant is handed out again.
      if (processingTime.getMillis() != nowMillis) {
        processingTime = new Instant(nowMillis);
      }
    }
    return processingTime;
  }

  @Override
  public Instant currentSynchronizedProcessingTime() {
    LongSupplier clock = synchronizedClock;
    if (clock != null) {
      long nowMillis = clock.getAsLong();
      if (synchronizedProcessingTime.getMillis() != nowMillis) {
        synchronizedProcessingTime = new Instant(nowMillis);
      }
    }
    return synchronizedProcessingTime;
  }

  @Override
  public Instant currentInputWatermarkTime() {
    return inputWatermark;
  }

  @Override
  public Instant currentOutputWatermarkTime() {
    return outputWatermark;
  }
}
