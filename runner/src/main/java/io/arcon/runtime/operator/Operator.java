package io.arcon.runtime.operator;

/**
 * One step of a fused operator chain. A node instance calls its operators from one thread, so an
 * operator needs no locking. Watermarks are epoch milliseconds; {@link Long#MAX_VALUE} stands for
 * "no hold" and for the final watermark of a finished input.
 */
public interface Operator {

  /** Called once before any other method. */
  void open(OperatorContext context) throws Exception;

  /**
   * The key of the element that the next {@link #processElement} call delivers. Called before
   * {@code processElement} for every element that crossed a keyed edge or was emitted keyed inside
   * the chain, with the key's structural bytes the sender computed (the bytes the keyed edge routes
   * by); the element itself arrives without its key wrapper. Keyed operators keep the bytes for
   * their state and timers; the others ignore them.
   */
  default void setCurrentKey(byte[] keyBytes) {}

  /**
   * One element on input {@code port} (0 = the main input, 1.. = further inputs such as side
   * inputs, as wired by the graph).
   */
  void processElement(int port, Object element) throws Exception;

  /** A bundle starts before the first element after the previous {@link #finishBundle}. */
  default void startBundle() throws Exception {}

  /** Ends the current bundle; outputs buffered by the user's code must be emitted now. */
  default void finishBundle() throws Exception {}

  /**
   * The operator's input watermark advanced to {@code watermark}: fire event-time timers that are
   * now due, release held elements. Called inside a bundle.
   */
  default void advanceWatermark(long watermark) throws Exception {}

  /**
   * The watermark of input {@code port} alone advanced (called before {@link #advanceWatermark} for
   * the combined watermark). Operators with side inputs use it to decide readiness.
   */
  default void advancePortWatermark(int port, long watermark) throws Exception {}

  /** The earliest timestamp this operator may still emit (holds, pushed-back data, timers). */
  default long outputWatermarkHold() {
    return Long.MAX_VALUE;
  }

  /** Processing time reached {@code nowMillis}: fire due processing-time timers. */
  default void advanceProcessingTime(long nowMillis) throws Exception {}

  /**
   * When the operator next wants {@link #advanceProcessingTime} ({@code Long.MAX_VALUE}: never).
   */
  default long nextProcessingTimeWakeup() {
    return Long.MAX_VALUE;
  }

  /**
   * True while the operator still has work of its own to do after its inputs ended (a splittable
   * DoFn's residual restrictions); its node waits for it before finishing.
   */
  default boolean hasPendingWork() {
    return false;
  }

  /**
   * True when the operator holds its input until the watermark passes it, to process it in event
   * time order: its node then holds back input channels that run far ahead of the others ({@code
   * WatermarkAlignment}). Asked once, after {@link #open}.
   */
  default boolean sortsInputByEventTime() {
    return false;
  }

  /** Every input ended (after the final watermark). Flush anything still buffered. */
  default void endOfInput() throws Exception {}

  /**
   * True while the operator holds output in memory that its snapshot does not keep (a lifted
   * combine's partial accumulators); {@link #emitHeldOutput} then emits it. Asked before every
   * epoch's snapshot.
   */
  default boolean holdsOutput() {
    return false;
  }

  /**
   * Emits what {@link #holdsOutput} said the operator holds. Called inside a bundle before an
   * epoch's snapshot (as Flink's {@code prepareSnapshotPreBarrier}): the output then goes
   * downstream ahead of the epoch's marker and is part of the epoch, where a restore from the epoch
   * would otherwise resume the input after elements whose only trace was in memory.
   */
  default void emitHeldOutput() throws Exception {}

  /**
   * Writes what this operator needs to resume into {@code snapshot} (its state, buffered input, a
   * source's position). Called between bundles once the epoch's markers arrived on every input; an
   * operator restores it in {@link #open} from {@link OperatorContext#restore()}. Operators without
   * state of their own write nothing.
   */
  default void snapshotState(OperatorSnapshot snapshot) throws Exception {}

  /**
   * Every node acknowledged epoch {@code epoch} and its manifest is committed: side effects that
   * must wait for a durable epoch (bundle finalizers, {@code CheckpointMark.finalizeCheckpoint},
   * input held for {@code @RequiresStableInput}) may go ahead for everything up to it. Called
   * between bundles.
   */
  default void epochCompleted(long epoch) throws Exception {}

  /**
   * The state this instance keeps, or null when it keeps none. Called on the node's thread between
   * bundles, at most about once a second: it may ask the engine for its size.
   */
  default StateUsage stateUsage() {
    return null;
  }

  /** Releases resources; called on success, failure and cancellation. */
  default void close() throws Exception {}
}
