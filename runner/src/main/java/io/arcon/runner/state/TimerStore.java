package io.arcon.runner.state;

import io.arcon.state.StateBackend;
import io.arcon.state.heap.HeapStateBackend;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Instant;

/**
 * The pending timers of one transform instance. Single-threaded, like the node that owns it.
 *
 * <p>A timer's identity is (key, namespace, timer family, timer id); setting a timer with an
 * existing identity replaces it, whatever its domain. Timers of one domain fire in timestamp order,
 * ties in the order of their identities' bytes ({@link TimerIdentities}), so every store fires the
 * same timers in the same order.
 */
public interface TimerStore {

  /**
   * Chooses the store for a backend: on the heap engine the timers live as objects ({@link
   * HeapTimerStore}), on the persistent engines in the backend's tables ({@link
   * BackendTimerStore}). Either way the backend's snapshots hold them.
   */
  static TimerStore forBackend(StateBackend backend, Coder<? extends BoundedWindow> windowCoder) {
    BackendTimerStore tables = new BackendTimerStore(backend, windowCoder);
    return HeapStateBackend.ENGINE.equals(backend.engine()) ? new HeapTimerStore(tables) : tables;
  }

  /**
   * Sets {@code timer} for the key, replacing the timer with the same (key, namespace, family, id).
   * A TimerData marked deleted deletes that timer instead.
   */
  void setTimer(byte[] encodedKey, TimerData timer);

  /**
   * Deletes the timer with this (key, namespace, family, id), if any. The domain is not part of a
   * timer's identity (as in runners-core's in-memory timers) and is accepted for API symmetry.
   */
  void deleteTimer(
      byte[] encodedKey,
      StateNamespace namespace,
      String timerId,
      String timerFamilyId,
      TimeDomain domain);

  /**
   * Removes and returns the timer of {@code domain} with the smallest timestamp strictly before
   * {@code bound} (ties broken by identity bytes), or null if there is none.
   */
  KeyedTimer pollFirstBefore(TimeDomain domain, Instant bound);

  /** The earliest pending timestamp in {@code domain}, or null when none is pending. */
  Instant nextTimestamp(TimeDomain domain);

  /**
   * The minimum output timestamp over all pending timers of every domain (it holds the output
   * watermark), or {@link BoundedWindow#TIMESTAMP_MAX_VALUE} when no timer is pending.
   */
  Instant minimumOutputTimestamp();

  /** The pending timer with this identity, or null. */
  TimerData getTimer(
      byte[] encodedKey, StateNamespace namespace, String timerId, String timerFamilyId);

  /**
   * Brings the backend's timer tables up to date, so that a backend snapshot taken next holds
   * exactly the pending timers. Call it right before every snapshot.
   */
  void beforeSnapshot();

  /**
   * Called once the backend has taken the snapshot that {@link #beforeSnapshot} prepared (its
   * synchronous part), so a store that keeps its timers elsewhere can empty the tables again.
   */
  void afterSnapshot();

  /**
   * The memory the pending timers take beyond the backend's own {@code approximateSizeBytes()}: 0
   * when they are rows of the backend.
   */
  long approximateSizeBytes();
}
