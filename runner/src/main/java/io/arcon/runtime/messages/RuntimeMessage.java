package io.arcon.runtime.messages;

/**
 * Messages between node actors. Data travels in {@link EventBatch}es, never one message per
 * element; a channel is one (edge, sender instance) pair as seen by the receiver.
 */
public sealed interface RuntimeMessage
    permits RuntimeMessage.EventBatch,
        RuntimeMessage.Watermark,
        RuntimeMessage.EndOfStream,
        RuntimeMessage.Credit {

  /** Elements of one channel, in order. */
  record EventBatch(int channel, Object[] elements, int size) implements RuntimeMessage {}

  /** The sender's output watermark on this channel (epoch millis). */
  record Watermark(int channel, long watermark) implements RuntimeMessage {}

  /** The sender will send nothing more on this channel. */
  record EndOfStream(int channel) implements RuntimeMessage {}

  /** The receiver consumed one batch of the sender's output channel {@code (edge, receiver)}. */
  record Credit(int edgeId, int receiverInstance) implements RuntimeMessage {}
}
