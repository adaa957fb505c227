package io.arcon.runtime.node.input;

import java.util.ArrayDeque;
import java.util.function.IntToLongFunction;

/**
 * Holds back the input of channels whose watermark runs far ahead of the node's input watermark,
 * for a node that sorts its input by event time. Such a node can release nothing above its input
 * watermark, the minimum over all channels, so every element a channel sends beyond it waits in the
 * node's sort buffer; two source instances that the scheduler runs at different speeds left
 * hundreds of thousands of elements there (and the garbage collector copying them). A held channel
 * gets no credit back, so its sender stops once its credits are spent and the lagging senders get
 * the threads. This is Flink's watermark alignment, applied at the receiver.
 *
 * <p>A channel is held while its watermark is more than {@code maxDriftMillis} above the input
 * watermark; its messages keep their order in a queue. A lagging channel that does not advance (an
 * idle source) must not stall the others: when the input watermark has not moved for {@code
 * idleMillis} while input is held, everything is released and nothing is held again until the input
 * watermark moves.
 *
 * @param <M> a held input (a message and whom to return its credit to)
 */
public final class WatermarkAlignment<M> {
  private final long maxDriftMillis;
  private final long idleMillis;
  private final IntToLongFunction channelWatermark;
  private final ArrayDeque<M>[] held;
  private int heldChannels;

  private long inputWatermark = Long.MIN_VALUE;
  private long inputWatermarkMovedAt;
  private boolean suspended;

  /**
   * @param channels the node's input channel count
   * @param channelWatermark a channel's current watermark (ended channels: {@code Long.MAX_VALUE})
   * @param maxDriftMillis how far a channel's watermark may run ahead of the input watermark
   * @param idleMillis how long the input watermark may stand still before holding stops
   * @param nowMillis the current time
   */
  @SuppressWarnings("unchecked")
  public WatermarkAlignment(
      int channels,
      IntToLongFunction channelWatermark,
      long maxDriftMillis,
      long idleMillis,
      long nowMillis) {
    if (maxDriftMillis < 0 || idleMillis < 1) {
      throw new IllegalArgumentException(
          "maxDriftMillis must be >= 0 and idleMillis >= 1, got "
              + maxDriftMillis
              + ", "
              + idleMillis);
    }
    this.maxDriftMillis = maxDriftMillis;
    this.idleMillis = idleMillis;
    this.channelWatermark = channelWatermark;
    this.held = new ArrayDeque[channels];
    for (int ch = 0; ch < channels; ch++) {
      held[ch] = new ArrayDeque<>();
    }
    this.inputWatermarkMovedAt = nowMillis;
  }

  /**
   * True when input of {@code channel} must wait: earlier input of it waits, or it runs too far
   * ahead.
   */
  public boolean holds(int channel) {
    return !held[channel].isEmpty() || isAhead(channel);
  }

  /** Keeps {@code input} of {@code channel}, behind its earlier held input. */
  public void hold(int channel, M input) {
    if (held[channel].isEmpty()) {
      heldChannels++;
    }
    held[channel].add(input);
  }

  /** The node's input watermark is now {@code watermark}. */
  public void inputWatermarkIs(long watermark, long nowMillis) {
    if (watermark > inputWatermark) {
      inputWatermark = watermark;
      inputWatermarkMovedAt = nowMillis;
      suspended = false;
    }
  }

  /**
   * The next held input that may go on, oldest first per channel, or null when none may: of a
   * channel that is no longer ahead, or of any channel once the input watermark stood still for the
   * idle time (holding is then suspended until it moves).
   */
  public M nextReleased(long nowMillis) {
    if (heldChannels == 0) {
      return null;
    }
    if (!suspended && nowMillis - inputWatermarkMovedAt >= idleMillis) {
      suspended = true;
    }
    for (int ch = 0; ch < held.length; ch++) {
      if (!held[ch].isEmpty() && !isAhead(ch)) {
        M next = held[ch].poll();
        if (held[ch].isEmpty()) {
          heldChannels--;
        }
        return next;
      }
    }
    return null;
  }

  /** Ends holding for now (an epoch alignment needs every channel's marker). */
  public void suspend() {
    suspended = true;
  }

  /** When holding should be looked at again (the idle time), or {@code Long.MAX_VALUE}. */
  public long deadline() {
    return heldChannels == 0 || suspended ? Long.MAX_VALUE : inputWatermarkMovedAt + idleMillis;
  }

  /** True while some input is held. */
  public boolean isHolding() {
    return heldChannels > 0;
  }

  private boolean isAhead(int channel) {
    if (suspended || inputWatermark == Long.MAX_VALUE) {
      return false;
    }
    long w = channelWatermark.applyAsLong(channel);
    long limit =
        inputWatermark > Long.MAX_VALUE - maxDriftMillis
            ? Long.MAX_VALUE
            : inputWatermark + maxDriftMillis;
    return w != Long.MAX_VALUE && w > limit;
  }
}
