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
   */
  record EventBatch(int channel, Object[] elements, int size, long syncStamp)
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
