package io.arcon.runner.state;

import java.util.Objects;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * The {@link TimerInternals} a DoFn runner sees: timers of the key that is current in the given
 * {@link BackendStateInternals}, stored in a {@link BackendTimerStore}, and the clocks the runtime
 * sets before each bundle or element.
 */
public final class KeyedTimerInternals implements TimerInternals {
  private final BackendTimerStore store;
  private final BackendStateInternals<?> state;

  private Instant inputWatermark = BoundedWindow.TIMESTAMP_MIN_VALUE;
  // Null until known, as TimerInternals#currentOutputWatermarkTime allows.
  private Instant outputWatermark = null;
  private Instant processingTime = BoundedWindow.TIMESTAMP_MIN_VALUE;
  private Instant synchronizedProcessingTime = BoundedWindow.TIMESTAMP_MIN_VALUE;

  public KeyedTimerInternals(BackendTimerStore store, BackendStateInternals<?> state) {
    this.store = Objects.requireNonNull(store, "store");
    this.state = Objects.requireNonNull(state, "state");
  }

  public void setInputWatermark(Instant inputWatermark) {
    this.inputWatermark = inputWatermark;
  }

  public void setOutputWatermark(Instant outputWatermark) {
    this.outputWatermark = outputWatermark;
  }

  public void setProcessingTime(Instant processingTime) {
    this.processingTime = processingTime;
  }

  public void setSynchronizedProcessingTime(Instant synchronizedProcessingTime) {
    this.synchronizedProcessingTime = synchronizedProcessingTime;
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
    return processingTime;
  }

  @Override
  public Instant currentSynchronizedProcessingTime() {
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
