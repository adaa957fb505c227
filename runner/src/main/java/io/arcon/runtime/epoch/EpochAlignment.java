package io.arcon.runtime.epoch;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Aligns the epoch markers of one node instance's input channels (Chandy–Lamport with alignment, as
 * Flink's aligned checkpoints): once a channel delivered the marker of the epoch being aligned, its
 * further input is held back, so the snapshot taken when every open channel delivered it holds
 * exactly the effect of the input before the markers. Channels that ended count as aligned: they
 * will send nothing more.
 *
 * <p>Markers of one epoch always reach every node (a node forwards its marker right after its
 * snapshot, even when the coordinator later gives the epoch up), and a channel is FIFO, so the
 * marker of epoch n+1 can only be handled here after epoch n aligned: epochs never overlap.
 *
 * @param <M> a held input (a message and whom to return its credit to)
 */
public final class EpochAlignment<M> {
  /** What a marker did. */
  public enum Outcome {
    /** More channels must deliver the marker. */
    ALIGNING,
    /** Every open channel delivered it: snapshot now, then {@link #release()} the held input. */
    ALIGNED
  }

  private final boolean[] delivered;
  private final IntPredicate channelEnded;
  private final ArrayDeque<M> held = new ArrayDeque<>();

  /** The epoch being aligned, 0 when none. */
  private long aligning;

  /** The newest epoch aligned here; a marker must be newer or of the epoch being aligned. */
  private long newestSeen;

  /**
   * @param channels the node's input channel count
   * @param channelEnded whether a channel has ended (its end of stream was handled)
   */
  public EpochAlignment(int channels, IntPredicate channelEnded) {
    this.delivered = new boolean[channels];
    this.channelEnded = channelEnded;
  }

  /** True when input of {@code channel} must be held: it already delivered the aligning marker. */
  public boolean holds(int channel) {
    return aligning != 0 && delivered[channel];
  }

  /** Keeps {@code input} of a held channel until the alignment ends. */
  public void hold(M input) {
    held.add(input);
  }

  /** The epoch being aligned, 0 when none. */
  public long aligningEpoch() {
    return aligning;
  }

  /** {@code channel} delivered the marker of {@code epoch}. */
  public Outcome onMarker(int channel, long epoch) {
    if (aligning == 0) {
      if (epoch <= newestSeen) {
        throw new IllegalStateException(
            "Epoch marker " + epoch + " on channel " + channel + " after epoch " + newestSeen);
      }
      aligning = epoch;
      newestSeen = epoch;
    } else if (epoch != aligning || delivered[channel]) {
      throw new IllegalStateException(
          "Epoch marker "
              + epoch
              + " on channel "
              + channel
              + " while aligning epoch "
              + aligning
              + (delivered[channel] ? " (the channel is held)" : ""));
    }
    delivered[channel] = true;
    return isAligned() ? Outcome.ALIGNED : Outcome.ALIGNING;
  }

  /** {@code channel} ended; true when that completed the current alignment. */
  public boolean onChannelEnded() {
    return aligning != 0 && isAligned();
  }

  private boolean isAligned() {
    for (int ch = 0; ch < delivered.length; ch++) {
      if (!delivered[ch] && !channelEnded.test(ch)) {
        return false;
      }
    }
    return true;
  }

  /** Ends the alignment after its snapshot: returns the held input, oldest first. */
  public List<M> release() {
    aligning = 0;
    Arrays.fill(delivered, false);
    List<M> released = List.copyOf(held);
    held.clear();
    return released;
  }
}
