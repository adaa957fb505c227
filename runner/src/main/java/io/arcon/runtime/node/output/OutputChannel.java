package io.arcon.runtime.node.output;

import io.arcon.runtime.messages.RuntimeMessage;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.time.SynchronizedTime;
import java.util.ArrayDeque;

/**
 * The sending side of one (edge, receiver instance) channel: batches elements and enforces
 * credit-based flow control. Watermarks and end-of-stream queue behind pending batches so the
 * receiver sees them in order.
 */
final class OutputChannel {
  private final MessageSink receiver;
  private final int remoteChannel;
  private final int receiverVertex;
  private final int batchSize;
  private final SynchronizedTime syncTime;
  private final NodeActivity activity;
  private final ArrayDeque<RuntimeMessage> queue = new ArrayDeque<>();
  private int credits;
  private Object[] buffer;

  /** Key bytes of the buffered elements; null until a keyed element is buffered. */
  private byte[][] keys;

  private int size;

  /**
   * @param remoteChannel the channel number the receiver knows this channel by
   * @param receiverVertex the receiver's vertex id, at which synchronized time is held
   */
  OutputChannel(
      MessageSink receiver,
      int remoteChannel,
      int receiverVertex,
      int batchSize,
      int credits,
      SynchronizedTime syncTime,
      NodeActivity activity) {
    this.receiver = receiver;
    this.remoteChannel = remoteChannel;
    this.receiverVertex = receiverVertex;
    this.batchSize = batchSize;
    this.credits = credits;
    this.syncTime = syncTime;
    this.activity = activity;
    this.buffer = new Object[batchSize];
  }

  void add(Object element) {
    buffer[size++] = element;
    if (size == batchSize) {
      flush(syncTime.stampAndHold(receiverVertex), false);
    }
  }

  /** Buffers an element of a keyed edge with the key bytes the receiver's state is under. */
  void add(byte[] keyBytes, Object element) {
    if (keys == null) {
      keys = new byte[batchSize][];
    }
    keys[size] = keyBytes;
    add(element);
  }

  /**
   * Ships the partially filled batch, if any, stamped with {@code syncStamp}: the sender's
   * synchronized output time, taken once for everything it sends at this point (see {@link
   * SynchronizedTime#sendStamped}).
   */
  void flush(long syncStamp) {
    flush(syncStamp, true);
  }

  private void flush(long syncStamp, boolean holdReceiver) {
    if (size == 0) {
      return;
    }
    if (holdReceiver) {
      syncTime.hold(receiverVertex, syncStamp);
    }
    RuntimeMessage batch =
        new RuntimeMessage.EventBatch(remoteChannel, buffer, keys, size, syncStamp);
    activity.messageSent();
    buffer = new Object[batchSize];
    if (keys != null) {
      keys = new byte[batchSize][];
    }
    size = 0;
    if (queue.isEmpty() && credits > 0) {
      credits--;
      receiver.send(batch);
    } else {
      queue.add(batch);
    }
  }

  /** Sends the watermark after any pending elements, both stamped with {@code syncStamp}. */
  void sendWatermark(long watermark, long syncStamp) {
    flush(syncStamp);
    syncTime.hold(receiverVertex, syncStamp);
    sendControl(new RuntimeMessage.Watermark(remoteChannel, watermark, syncStamp));
  }

  /** Follows a final watermark, which flushed every element; stamped like it. */
  void sendEndOfStream(long syncStamp) {
    syncTime.hold(receiverVertex, syncStamp);
    sendControl(new RuntimeMessage.EndOfStream(remoteChannel, syncStamp));
  }

  /** Sends the epoch marker after any pending elements. */
  void sendEpochMarker(long epoch, long syncStamp) {
    flush(syncStamp);
    sendControl(new RuntimeMessage.EpochMarker(remoteChannel, epoch));
  }

  private void sendControl(RuntimeMessage message) {
    activity.messageSent();
    if (queue.isEmpty()) {
      receiver.send(message);
    } else {
      queue.add(message);
    }
  }

  /** The receiver consumed a batch: send what the returned credit allows. */
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
      receiver.send(queue.poll());
    }
  }

  /** True while batches wait for credit: the node must stop producing. */
  boolean isBlocked() {
    return !queue.isEmpty();
  }
}
