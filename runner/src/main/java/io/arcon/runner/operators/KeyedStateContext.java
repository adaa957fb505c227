package io.arcon.runner.operators;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.BackendTimerStore;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runner.state.KeyedTimerInternals;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.CoderUtils;
import org.joda.time.Instant;

/**
 * The keyed state and timers of one stateful operator instance, all stored in one state backend:
 * Beam state through {@link BackendStateInternals}, timers through {@link BackendTimerStore}.
 * Runners-core sees them through the operator's {@link KeyedStepContext}.
 */
final class KeyedStateContext<K> implements AutoCloseable {
  private final StateBackend backend;
  private final Coder<K> keyCoder;
  final BackendStateInternals<K> stateInternals;
  final BackendTimerStore timerStore;
  final KeyedTimerInternals timerInternals;

  KeyedStateContext(
      String engine,
      Path directory,
      Coder<K> keyCoder,
      Coder<? extends BoundedWindow> windowCoder) {
    this.backend = StateBackends.open(StateBackendConfig.of(engine, directory));
    this.keyCoder = keyCoder;
    this.stateInternals = new BackendStateInternals<>(backend, keyCoder);
    this.timerStore = new BackendTimerStore(backend, windowCoder);
    this.timerInternals = new KeyedTimerInternals(timerStore, stateInternals);
  }

  /** Makes {@code encodedKey} the current key and {@code eventTime} the cause of writes. */
  K setCurrentKey(byte[] encodedKey, K key, Instant eventTime) {
    stateInternals.setKey(key, encodedKey);
    stateInternals.setEventTime(eventTime);
    return key;
  }

  /**
   * Processing time as user code and triggers see it while handling an element. Synchronized
   * processing time only moves with timers and watermarks, as it stands for upstream progress.
   */
  void setProcessingTime(long nowMillis) {
    timerInternals.setProcessingTime(new Instant(nowMillis));
  }

  /** Makes the timer's key current (decoding it) and returns the key. */
  K setCurrentKeyForTimer(KeyedTimer timer) {
    K key;
    try {
      key = CoderUtils.decodeFromByteArray(keyCoder, timer.encodedKey());
    } catch (Exception e) {
      throw new IllegalStateException("Cannot decode the key of a timer", e);
    }
    stateInternals.setKey(key, timer.encodedKey());
    stateInternals.setEventTime(timer.timer().getTimestamp());
    return key;
  }

  void setWatermarks(long inputWatermark, Instant processingTime) {
    setWatermarks(inputWatermark, processingTime, processingTime);
  }

  void setWatermarks(long inputWatermark, Instant processingTime, Instant synchronizedTime) {
    timerInternals.setInputWatermark(Watermarks.toInstant(inputWatermark));
    timerInternals.setProcessingTime(processingTime);
    timerInternals.setSynchronizedProcessingTime(synchronizedTime);
  }

  void setSynchronizedProcessingTime(long synchronizedMillis) {
    timerInternals.setSynchronizedProcessingTime(new Instant(synchronizedMillis));
  }

  /** Fires, in timestamp order, every event-time timer before {@code watermark}. */
  void fireEventTimers(long watermark, long processingTime, Consumer<KeyedTimer> fire) {
    setWatermarks(watermark, new Instant(processingTime));
    KeyedTimer timer;
    while ((timer = pollEventTimer(watermark)) != null) {
      fire.accept(timer);
    }
  }

  /** Fires, in timestamp order, every processing-time timer due at {@code nowMillis}. */
  void fireProcessingTimers(long inputWatermark, long nowMillis, Consumer<KeyedTimer> fire) {
    setWatermarks(inputWatermark, new Instant(nowMillis));
    KeyedTimer timer;
    while ((timer = pollProcessingTimer(nowMillis)) != null) {
      fire.accept(timer);
    }
  }

  KeyedTimer pollEventTimer(long watermark) {
    return timerStore.pollFirstBefore(TimeDomain.EVENT_TIME, Watermarks.firingBound(watermark));
  }

  KeyedTimer pollProcessingTimer(long nowMillis) {
    return pollProcessingTimer(nowMillis, nowMillis);
  }

  /**
   * The first processing-time timer at or before {@code processingMillis}, else the first
   * synchronized processing-time timer at or before {@code synchronizedMillis}.
   */
  KeyedTimer pollProcessingTimer(long processingMillis, long synchronizedMillis) {
    KeyedTimer t =
        timerStore.pollFirstBefore(TimeDomain.PROCESSING_TIME, new Instant(processingMillis + 1));
    return t != null
        ? t
        : timerStore.pollFirstBefore(
            TimeDomain.SYNCHRONIZED_PROCESSING_TIME, new Instant(synchronizedMillis + 1));
  }

  long nextProcessingTimeWakeup() {
    return Math.min(
        nextTimer(TimeDomain.PROCESSING_TIME), nextTimer(TimeDomain.SYNCHRONIZED_PROCESSING_TIME));
  }

  /** The earliest timer of {@code domain} in epoch millis, or {@code Long.MAX_VALUE}. */
  long nextTimer(TimeDomain domain) {
    Instant next = timerStore.nextTimestamp(domain);
    return next == null ? Long.MAX_VALUE : next.getMillis();
  }

  /** The earliest output timestamp still possible from state holds and pending timers. */
  long hold(boolean includeTimers) {
    long hold = Watermarks.fromInstant(stateInternals.minimumWatermarkHold());
    if (includeTimers) {
      hold = Math.min(hold, Watermarks.fromInstant(timerStore.minimumOutputTimestamp()));
    }
    return hold;
  }

  @Override
  public void close() {
    backend.dispose();
  }
}
