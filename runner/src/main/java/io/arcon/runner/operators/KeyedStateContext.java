package io.arcon.runner.operators;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.KeyDecoder;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runner.state.KeyedTimerInternals;
import io.arcon.runner.state.TimerStore;
import io.arcon.runner.state.rescale.InstanceProgress;
import io.arcon.runner.state.rescale.KeyedBackendRestore;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.StateUsage;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * The keyed state and timers of one stateful operator instance, all stored in one state backend:
 * Beam state through {@link BackendStateInternals}, timers through a {@link TimerStore}.
 * Runners-core sees them through the operator's {@link KeyedStepContext}.
 *
 * <p>Checkpoints: {@link #snapshot} writes the backend's snapshot (every table, whoever wrote it:
 * state, holds, timers, state history, time-sorted input) plus the operator's input watermark into
 * the operator's snapshot directory; {@link #open} resumes from one, at any parallelism and on any
 * engine (see {@link KeyedBackendRestore}).
 */
public final class KeyedStateContext<K> implements AutoCloseable {
  private final StateBackend backend;
  private final KeyDecoder keyDecoder;
  private final long restoredInputWatermark;

  final BackendStateInternals<K> stateInternals;
  final TimerStore timerStore;
  final KeyedTimerInternals timerInternals;

  /** A fresh context: empty state. */
  KeyedStateContext(
      String engine,
      Path directory,
      Coder<K> keyCoder,
      Coder<? extends BoundedWindow> windowCoder) {
    this(StateBackends.open(StateBackendConfig.of(engine, directory)), keyCoder, windowCoder);
  }

  /**
   * The context of instance {@code instanceIndex} of {@code parallelism} in a backend opened with
   * {@code backendConfig}, resuming from {@code restore} when it is not null, else fresh.
   *
   * @throws io.arcon.state.CorruptSnapshotException naming the file when the checkpoint's snapshot
   *     is missing, cut or corrupt
   */
  KeyedStateContext(
      StateBackendConfig backendConfig,
      Coder<K> keyCoder,
      Coder<? extends BoundedWindow> windowCoder,
      OperatorRestore restore,
      int instanceIndex,
      int parallelism) {
    this(
        restore == null
            ? StateBackends.open(backendConfig)
            : KeyedBackendRestore.open(backendConfig, restore, instanceIndex, parallelism),
        keyCoder,
        windowCoder);
  }

  private KeyedStateContext(
      StateBackend backend, Coder<K> keyCoder, Coder<? extends BoundedWindow> windowCoder) {
    this.backend = backend;
    this.keyDecoder = new KeyDecoder(keyCoder);
    this.stateInternals = new BackendStateInternals<>(backend, keyCoder);
    this.timerStore = TimerStore.forBackend(backend, windowCoder);
    this.timerInternals = new KeyedTimerInternals(timerStore, stateInternals);
    this.restoredInputWatermark = InstanceProgress.inputWatermark(backend);
    if (restoredInputWatermark != Long.MIN_VALUE) {
      // Late-data dropping reads the timer internals' watermark before the first advance.
      timerInternals.setInputWatermark(Watermarks.toInstant(restoredInputWatermark));
    }
  }

  /**
   * The context of the operator instance {@code context} describes, in its state directory and with
   * the job's engine options ({@link OperatorContext#stateBackendOptions()}), resuming from {@link
   * OperatorContext#restore()} when the job resumes from a checkpoint. Call it from {@link
   * io.arcon.runtime.operator.Operator#open}. The backend's errors (e.g. lmdb's key size limit)
   * name {@code stepName}, the stateful transform's full name.
   */
  public static <K> KeyedStateContext<K> open(
      String engine,
      String stepName,
      OperatorContext context,
      Coder<K> keyCoder,
      Coder<? extends BoundedWindow> windowCoder) {
    return new KeyedStateContext<>(
        new StateBackendConfig(
            engine, context.stateDirectory(), context.stateBackendOptions(), stepName),
        keyCoder,
        windowCoder,
        context.restore(),
        context.instanceIndex(),
        context.parallelism());
  }

  /**
   * Writes this instance's state, with {@code inputWatermark} (the operator's input watermark at
   * the cut), into {@code snapshot}'s directory. Call it between bundles, from {@link
   * io.arcon.runtime.operator.Operator#snapshotState}. What must see the state at the cut happens
   * before this returns (heap: writing its tables; rocksdb: flush and hard links; lmdb: a commit);
   * the rest (lmdb's copy, checksums, manifests) is registered with {@link
   * OperatorSnapshot#completeAsync}, so the operator may go on changing its state at once.
   */
  public void snapshot(OperatorSnapshot snapshot, long inputWatermark) {
    stateInternals.flushHistory();
    timerStore.beforeSnapshot();
    InstanceProgress.writeInputWatermark(backend, inputWatermark);
    snapshot.completeAsync(
        backend.snapshotAsync(
            snapshot.epoch(),
            snapshot.directory().resolve(KeyedBackendRestore.SNAPSHOT_DIRECTORY)));
    timerStore.afterSnapshot();
  }

  /**
   * The operator's input watermark recorded by the snapshot this context resumed from ({@link
   * Long#MIN_VALUE} for a fresh context): an operator starts from it, so that an element late
   * before the failure is late after it, and timers that fired before the cut do not fire again.
   */
  public long restoredInputWatermark() {
    return restoredInputWatermark;
  }

  /** Makes {@code encodedKey} the current key and {@code eventTime} the cause of writes. */
  public K setCurrentKey(byte[] encodedKey, K key, Instant eventTime) {
    stateInternals.setKey(key, encodedKey);
    stateInternals.setEventTime(eventTime);
    return key;
  }

  /**
   * Processing time as user code and triggers see it while handling an element: {@code clock}, read
   * when asked. Synchronized processing time is set apart ({@link #followSynchronizedClock}, or
   * with timers and watermarks).
   */
  public void followProcessingClock(LongSupplier clock) {
    timerInternals.followProcessingClock(clock);
  }

  /** Makes the timer's key current (decoding it) and returns the key. */
  @SuppressWarnings("unchecked")
  public K setCurrentKeyForTimer(KeyedTimer timer) {
    K key;
    try {
      key = (K) keyDecoder.decode(timer.encodedKey());
    } catch (Exception e) {
      throw new IllegalStateException("Cannot decode the key of a timer", e);
    }
    stateInternals.setKey(key, timer.encodedKey());
    stateInternals.setEventTime(timer.timer().getTimestamp());
    return key;
  }

  public void setWatermarks(long inputWatermark, Instant processingTime) {
    setWatermarks(inputWatermark, processingTime, processingTime);
  }

  void setWatermarks(long inputWatermark, Instant processingTime, Instant synchronizedTime) {
    setWatermarks(Watermarks.toInstant(inputWatermark), processingTime, synchronizedTime);
  }

  private void setWatermarks(Instant inputWatermark, Instant processingTime) {
    setWatermarks(inputWatermark, processingTime, processingTime);
  }

  private void setWatermarks(
      Instant inputWatermark, Instant processingTime, Instant synchronizedTime) {
    timerInternals.setInputWatermark(inputWatermark);
    timerInternals.setProcessingTime(processingTime);
    timerInternals.setSynchronizedProcessingTime(synchronizedTime);
  }

  /** The operator's output watermark (epoch millis), as runners-core's reduce logic reads it. */
  void setOutputWatermark(long outputWatermark) {
    timerInternals.setOutputWatermark(Watermarks.toInstant(outputWatermark));
  }

  /** Synchronized processing time follows {@code clock}, read when asked (see there). */
  void followSynchronizedClock(LongSupplier clock) {
    timerInternals.followSynchronizedClock(clock);
  }

  /** Fires, in timestamp order, every event-time timer before {@code watermark}. */
  void fireEventTimers(long watermark, long processingTime, Consumer<KeyedTimer> fire) {
    setWatermarks(watermark, new Instant(processingTime));
    KeyedTimer timer;
    while ((timer = pollEventTimer(watermark)) != null) {
      fire.accept(timer);
    }
  }

  /**
   * As {@link #fireEventTimers(long, long, Consumer)} for a {@code watermark} within Beam's
   * timestamp bounds (an element's timestamp), without allocating: sorted input calls it before
   * every element it releases.
   */
  void fireEventTimersBefore(Instant watermark, Instant processingTime, Consumer<KeyedTimer> fire) {
    setWatermarks(watermark, processingTime);
    KeyedTimer timer;
    while ((timer = timerStore.pollFirstBefore(TimeDomain.EVENT_TIME, watermark)) != null) {
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

  public KeyedTimer pollEventTimer(long watermark) {
    return timerStore.pollFirstBefore(TimeDomain.EVENT_TIME, Watermarks.firingBound(watermark));
  }

  public KeyedTimer pollProcessingTimer(long nowMillis) {
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

  public long nextProcessingTimeWakeup() {
    return Math.min(
        nextTimer(TimeDomain.PROCESSING_TIME), nextTimer(TimeDomain.SYNCHRONIZED_PROCESSING_TIME));
  }

  /** The earliest timer of {@code domain} in epoch millis, or {@code Long.MAX_VALUE}. */
  public long nextTimer(TimeDomain domain) {
    Instant next = timerStore.nextTimestamp(domain);
    return next == null ? Long.MAX_VALUE : next.getMillis();
  }

  /** The earliest output timestamp still possible from state holds and pending timers. */
  public long hold(boolean includeTimers) {
    long hold = Watermarks.fromInstant(stateInternals.minimumWatermarkHold());
    if (includeTimers) {
      hold = Math.min(hold, Watermarks.fromInstant(timerStore.minimumOutputTimestamp()));
    }
    return hold;
  }

  /** The engine and approximate size of this instance's state, timers included. */
  public StateUsage stateUsage() {
    return new StateUsage(
        backend.engine(), backend.approximateSizeBytes() + timerStore.approximateSizeBytes());
  }

  /** Beam state of the current key, over the backend. */
  public BackendStateInternals<K> stateInternals() {
    return stateInternals;
  }

  /** Timers of the current key, over the backend. */
  public KeyedTimerInternals timerInternals() {
    return timerInternals;
  }

  @Override
  public void close() {
    backend.dispose();
  }
}
