package io.arcon.runtime.node.time;

import io.arcon.runtime.job.SynchronizedTimeTracker;
import java.util.function.LongConsumer;

/**
 * A node's view of Beam's synchronized processing time. The default (what {@link #untracked()}
 * gives) is plain processing time and holds nothing: enough for jobs without
 * synchronized-processing-time triggers. {@link #tracked} holds the job's {@link
 * SynchronizedTimeTracker} back while this node has unfinished work, as Beam's DirectRunner does.
 *
 * <p>Holds follow the messages: a handled batch holds the node's output until its bundle's output
 * is sent ({@link #releaseBundleHolds}); a handled watermark or end of stream holds it until its
 * consequences are sent or a user timer callback starts ({@link #releaseWatermarkHolds}). Every
 * message sent carries a stamp, and the receiver's input is held at it until the receiver handles
 * it.
 */
public class SynchronizedTime {
  /** The time operators last saw; it never goes back, even if the clock does. */
  private long lastSeen = Long.MIN_VALUE;

  protected SynchronizedTime() {}

  /** Plain processing time, no holds: every method is a no-op. */
  public static SynchronizedTime untracked() {
    return new SynchronizedTime();
  }

  /**
   * Synchronized time of {@code vertexId} as {@code tracker} computes it from upstream progress.
   */
  public static SynchronizedTime tracked(SynchronizedTimeTracker tracker, int vertexId) {
    return new TrackedSynchronizedTime(tracker, vertexId);
  }

  /**
   * The synchronized processing time of the node's input at processing time {@code nowMillis},
   * never less than a value returned before.
   */
  public final long current(long nowMillis) {
    lastSeen = Math.max(lastSeen, inputTime(nowMillis));
    return lastSeen;
  }

  /** The input time before the never-go-back rule; processing time unless tracked. */
  protected long inputTime(long nowMillis) {
    return nowMillis;
  }

  /** A batch stamped {@code stamp} was handled inside the open bundle. */
  public void batchHandled(long stamp) {}

  /** A watermark or end of stream stamped {@code stamp} was handled. */
  public void watermarkHandled(long stamp) {}

  /** The open bundle's output has been sent. */
  public void releaseBundleHolds() {}

  /**
   * The consequences of the watermarks handled in this message have been sent, or user code is
   * about to run a timer callback (which must not hold synchronized time).
   */
  public void releaseWatermarkHolds() {}

  /**
   * Calls {@code send} with one stamp for everything the node sends on all its channels at this
   * point. The stamp is taken and every receiver held at it atomically: the receivers of one
   * watermark must all wait for the same time, or one could see a later stamp than its sibling and
   * run its synchronized-time timers first.
   */
  public void sendStamped(LongConsumer send) {
    send.accept(0);
  }

  /** A full batch leaves toward {@code receiverVertex} on its own: its stamp, held there. */
  public long stampAndHold(int receiverVertex) {
    return 0;
  }

  /** One more message stamped {@code stamp} (taken in {@link #sendStamped}) goes to a receiver. */
  public void hold(int receiverVertex, long stamp) {}
}
