package io.arcon.runtime.node;

import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.SynchronizedTimeTracker;
import io.arcon.runtime.messages.RuntimeMessage;
import java.util.ArrayDeque;
import org.apache.pekko.actor.ActorRef;

/**
 * The sending side of one (edge, receiver instance) channel: batches elements and enforces
 * credit-based flow control. Watermarks and end-of-stream queue behind pending batches so the
 * receiver sees them in order.
 */
final class OutputChannel {
  private final ActorRef receiver;
  private final ActorRef self;
  private final int remoteChannel;
  private final int batchSize;
  private int credits;
  private Object[] buffer;
  private int size;
  private final ArrayDeque<RuntimeMessage> queue = new ArrayDeque<>();
  private final JobActivity activity;
  private final SynchronizedTimeTracker syncTime;
  private final int senderVertex;
  private final int receiverVertex;

  /**
   * @param syncTime stamps and holds every batch and watermark, or null when the job does not track
   *     synchronized processing time
   */
  OutputChannel(
      ActorRef receiver,
      ActorRef self,
      int remoteChannel,
      int batchSize,
      int credits,
      JobActivity activity,
      SynchronizedTimeTracker syncTime,
      int senderVertex,
      int receiverVertex) {
    this.activity = activity;
    this.syncTime = syncTime;
    this.senderVertex = senderVertex;
    this.receiverVertex = receiverVertex;
    this.receiver = receiver;
    this.self = self;
    this.remoteChannel = remoteChannel;
    this.batchSize = batchSize;
    this.credits = credits;
    this.buffer = new Object[batchSize];
  }

  void add(Object element) {
    buffer[size++] = element;
    if (size == batchSize) {
      flush(syncTime == null ? 0 : syncTime.stampAndHold(senderVertex, receiverVertex), false);
    }
  }

  /**
   * Ships the partially filled batch, if any, stamped with {@code syncStamp}: the sender's
   * synchronized output time, taken once for everything it sends at this point (see {@link
   * NodeActor}).
   */
  void flush(long syncStamp) {
    flush(syncStamp, true);
  }

  private void flush(long syncStamp, boolean holdReceiver) {
    if (size == 0) {
      return;
    }
    if (holdReceiver && syncTime != null) {
      syncTime.hold(receiverVertex, syncStamp);
    }
    RuntimeMessage batch = new RuntimeMessage.EventBatch(remoteChannel, buffer, size, syncStamp);
    if (activity != null) {
      activity.sent();
    }
    buffer = new Object[batchSize];
    size = 0;
    if (queue.isEmpty() && credits > 0) {
      credits--;
      receiver.tell(batch, self);
    } else {
      queue.add(batch);
    }
  }

  /** Sends the watermark after any pending elements, both stamped with {@code syncStamp}. */
  void sendWatermark(long watermark, long syncStamp) {
    flush(syncStamp);
    if (syncTime != null) {
      syncTime.hold(receiverVertex, syncStamp);
    }
    sendControl(new RuntimeMessage.Watermark(remoteChannel, watermark, syncStamp));
  }

  /** Follows a final watermark, which flushed every element; stamped like it. */
  void sendEndOfStream(long syncStamp) {
    if (syncTime != null) {
      syncTime.hold(receiverVertex, syncStamp);
    }
    sendControl(new RuntimeMessage.EndOfStream(remoteChannel, syncStamp));
  }

  private void sendControl(RuntimeMessage message) {
    if (activity != null) {
      activity.sent();
    }
    if (queue.isEmpty()) {
      receiver.tell(message, self);
    } else {
      queue.add(message);
    }
  }

  void onCredit() {
    credits++;
    while (!queue.isEmpty()) {
      RuntimeMessage head = queue.peek();
      if (head instanceof RuntimeMessage.EventBatch) {
        if (credits == 0) {
          return;
        }
        credits--;
      }
      receiver.tell(queue.poll(), self);
    }
  }

  /** True while batches wait for credit: the node must stop producing. */
  boolean isBlocked() {
    return !queue.isEmpty();
  }
}
