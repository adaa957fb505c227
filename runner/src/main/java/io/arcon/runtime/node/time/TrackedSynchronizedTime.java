package io.arcon.runtime.node.time;

import io.arcon.runtime.job.SynchronizedTimeTracker;
import java.util.Arrays;
import java.util.function.LongConsumer;

/** {@link SynchronizedTime} of one node instance, held in the job's shared tracker. */
final class TrackedSynchronizedTime extends SynchronizedTime {
  private final SynchronizedTimeTracker tracker;
  private final int vertexId;

  /** Stamps of batches handled in the open bundle: released once the bundle's output is sent. */
  private final Stamps bundleHolds = new Stamps();

  /** Stamps of watermarks handled in this message: released once their consequences are sent. */
  private final Stamps watermarkHolds = new Stamps();

  TrackedSynchronizedTime(SynchronizedTimeTracker tracker, int vertexId) {
    this.tracker = tracker;
    this.vertexId = vertexId;
  }

  @Override
  protected long inputTime(long nowMillis) {
    return Math.min(nowMillis, tracker.inputTime(vertexId));
  }

  @Override
  public void batchHandled(long stamp) {
    tracker.inputHandled(vertexId, stamp);
    bundleHolds.add(stamp);
  }

  @Override
  public void watermarkHandled(long stamp) {
    tracker.inputHandled(vertexId, stamp);
    watermarkHolds.add(stamp);
  }

  @Override
  public void releaseBundleHolds() {
    bundleHolds.releaseAll(tracker, vertexId);
  }

  @Override
  public void releaseWatermarkHolds() {
    watermarkHolds.releaseAll(tracker, vertexId);
  }

  @Override
  public void sendStamped(LongConsumer send) {
    tracker.sendStamped(vertexId, send);
  }

  @Override
  public long stampAndHold(int receiverVertex) {
    return tracker.stampAndHold(vertexId, receiverVertex);
  }

  @Override
  public void hold(int receiverVertex, long stamp) {
    tracker.hold(receiverVertex, stamp);
  }

  /** A growable list of stamps; no boxing, as a batch's stamp is recorded per batch. */
  private static final class Stamps {
    private long[] stamps = new long[8];
    private int count;

    void add(long stamp) {
      if (count == stamps.length) {
        stamps = Arrays.copyOf(stamps, count * 2);
      }
      stamps[count++] = stamp;
    }

    void releaseAll(SynchronizedTimeTracker tracker, int vertexId) {
      for (int i = 0; i < count; i++) {
        tracker.outputReleased(vertexId, stamps[i]);
      }
      count = 0;
    }
  }
}
