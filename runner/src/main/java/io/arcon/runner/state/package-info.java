/**
 * Beam state and timers stored through the state-backend SPI ({@code io.arcon.state}), so that
 * choosing a transform's backend ({@code heap}, {@code rocksdb}, {@code lmdb}) moves all of its
 * state and timers, and a backend snapshot holds both.
 *
 * <ul>
 *   <li>{@link io.arcon.runner.state.BackendStateInternals}: every Beam state kind over one
 *       backend, keyed by the coder-encoded key, each row stamped with the event time that wrote it
 *       ({@code updated_at}), plus the minimum watermark hold over all keys.
 *   <li>{@link io.arcon.runner.state.TimerStore}: the pending timers of one transform instance,
 *       ordered per time domain; {@link io.arcon.runner.state.KeyedTimerInternals} is the
 *       current-key view a DoFn runner uses. {@link io.arcon.runner.state.BackendTimerStore} keeps
 *       them in the backend's tables (rocksdb, lmdb); on the heap engine {@code HeapTimerStore}
 *       keeps them as objects in heaps and writes them to the same tables only for a snapshot.
 *   <li>{@link io.arcon.runner.state.StateAddress}: decodes row keys and {@code updated_at} for
 *       readers that walk the tables (state extraction).
 *   <li>{@link io.arcon.runner.state.history}: per-row version chains of exported states, read as
 *       of any version time (TSS).
 * </ul>
 *
 * <p>Everything here is single-threaded, like the Arcon node that owns the backend. Call {@link
 * io.arcon.runner.state.TimerStore#beforeSnapshot()} and {@link
 * io.arcon.runner.state.TimerStore#afterSnapshot()} around every backend snapshot. A backend is
 * restored before its timer store is made; after {@code StateBackend.restore} on a backend that a
 * live {@code BackendTimerStore} uses, call {@link
 * io.arcon.runner.state.BackendTimerStore#afterRestore()}.
 */
package io.arcon.runner.state;
