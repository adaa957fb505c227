package io.arcon.runtime.node;

import io.arcon.runtime.job.JobActivity;
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

  OutputChannel(
      ActorRef receiver,
      ActorRef self,
      int remoteChannel,
      int batchSize,
      int credits,
      JobActivity activity) {
    this.activity = activity;
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
      flush();
    }
  }

  /** Ships the partially filled batch, if any. */
  void flush() {
    if (size == 0) {
      return;
    }
    RuntimeMessage batch = new RuntimeMessage.EventBatch(remoteChannel, buffer, size);
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

  void sendWatermark(long watermark) {
    sendControl(new RuntimeMessage.Watermark(remoteChannel, watermark));
  }

  void sendEndOfStream() {
    sendControl(new RuntimeMessage.EndOfStream(remoteChannel));
  }

  private void sendControl(RuntimeMessage message) {
    flush();
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
