package io.arcon.runtime.messages;

/**
 * Messages between node actors. Data travels in {@link EventBatch}es, never one message per
 * element; a channel is one (edge, sender instance) pair as seen by the receiver.
 */
public sealed interface RuntimeMessage
    permits RuntimeMessage.EventBatch,
        RuntimeMessage.Watermark,
        RuntimeMessage.EndOfStream,
        RuntimeMessage.EpochMarker,
        RuntimeMessage.Credit {

  /**
   * Elements of one channel, in order. {@code syncStamp} is the sender's synchronized processing
   * time when it was sent, if the job tracks it (see {@code SynchronizedTimeTracker}).
   *
   * <p>{@code keys} is null on an edge that is not keyed; on a keyed edge {@code keys[i]} is the
   * key bytes the sender computed for {@code elements[i]} (so the receiver does not encode the key
   * again). A parallel array rather than a wrapper per element: a keyed edge carries every element
   * of a stateful step, and a wrapper was one more object per element in the allocation stream that
   * evicts the state tables from the caches.
   */
  record EventBatch(int channel, Object[] elements, byte[][] keys, int size, long syncStamp)
      implements RuntimeMessage {}

  /** The sender's output watermark on this channel (epoch millis), stamped like a batch. */
  record Watermark(int channel, long watermark, long syncStamp) implements RuntimeMessage {}

  /**
   * The sender will send nothing more on this channel. It is what moves the receiver to the final
   * watermark, so it is stamped like a watermark.
   */
  record EndOfStream(int channel, long syncStamp) implements RuntimeMessage {}

  /**
   * Everything the sender sent on this channel before it belongs to epoch {@code epoch}, everything
   * after to the next one (a Chandy–Lamport barrier). It is not credit-limited but queues behind
   * pending batches, like a watermark.
   */
  record EpochMarker(int channel, long epoch) implements RuntimeMessage {}

  /** The receiver consumed one batch of the sender's output channel {@code (edge, receiver)}. */
  record Credit(int edgeId, int receiverInstance) implements RuntimeMessage {}
}
