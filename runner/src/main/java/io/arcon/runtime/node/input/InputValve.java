package io.arcon.runtime.node.input;

import io.arcon.runtime.graph.ChannelLayout;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.Vertex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The input side of one node instance: which operator port each input channel feeds, the watermark
 * and end of stream of every channel, and from them the watermark of every (operator, port) and the
 * node's combined input watermark (the minimum over all channels). Channels are numbered by {@link
 * ChannelLayout}.
 */
public final class InputValve {
  /** Told when the watermark of one operator input port rose. */
  @FunctionalInterface
  public interface PortWatermarkListener {
    void advanced(int operator, int port, long watermark) throws Exception;
  }

  private final int[] channelOperator;
  private final int[] channelPort;
  private final int[] channelEdgeId;
  private final long[] channelWatermark;
  private final boolean[] channelEnded;
  private int openChannels;

  /** Each channel's index among the distinct (operator, port) pairs channels feed. */
  private final int[] channelPortIndex;

  private final int[] portOperator;
  private final int[] portNumber;
  private final long[] portWatermark;

  public InputValve(Vertex vertex, int instance) {
    int channels = ChannelLayout.channelCount(vertex);
    channelOperator = new int[channels];
    channelPort = new int[channels];
    channelEdgeId = new int[channels];
    channelWatermark = new long[channels];
    channelEnded = new boolean[channels];
    Arrays.fill(channelWatermark, Long.MIN_VALUE);
    for (Edge e : vertex.inputs()) {
      for (int s = 0; s < e.source().parallelism(); s++) {
        if (e.connects(s, instance)) {
          int ch = ChannelLayout.channelIndex(e, s);
          channelOperator[ch] = e.targetOperator();
          channelPort[ch] = e.targetPort();
          channelEdgeId[ch] = e.id();
        }
      }
    }
    openChannels = channels;
    List<Long> ports = new ArrayList<>();
    channelPortIndex = new int[channels];
    for (int ch = 0; ch < channels; ch++) {
      long key = ((long) channelOperator[ch] << 32) | channelPort[ch];
      int idx = ports.indexOf(key);
      if (idx < 0) {
        idx = ports.size();
        ports.add(key);
      }
      channelPortIndex[ch] = idx;
    }
    portOperator = new int[ports.size()];
    portNumber = new int[ports.size()];
    portWatermark = new long[ports.size()];
    Arrays.fill(portWatermark, Long.MIN_VALUE);
    for (int i = 0; i < ports.size(); i++) {
      portOperator[i] = (int) (ports.get(i) >>> 32);
      portNumber[i] = (int) (long) ports.get(i);
    }
  }

  public int channelCount() {
    return channelOperator.length;
  }

  /** The chain operator that channel {@code channel} feeds. */
  public int targetOperator(int channel) {
    return channelOperator[channel];
  }

  /** The input port of {@link #targetOperator} that channel {@code channel} feeds. */
  public int targetPort(int channel) {
    return channelPort[channel];
  }

  /** The id of the edge channel {@code channel} belongs to; credits name it. */
  public int edgeId(int channel) {
    return channelEdgeId[channel];
  }

  /** Records a watermark of {@code channel}; true if the channel's watermark rose. */
  public boolean onWatermark(int channel, long watermark) {
    if (watermark <= channelWatermark[channel]) {
      return false;
    }
    channelWatermark[channel] = watermark;
    return true;
  }

  /**
   * Records the end of {@code channel} (its watermark becomes final); true if it was open before.
   */
  public boolean onEndOfStream(int channel) {
    if (channelEnded[channel]) {
      return false;
    }
    channelEnded[channel] = true;
    channelWatermark[channel] = Long.MAX_VALUE;
    openChannels--;
    return true;
  }

  /** The last watermark of {@code channel} ({@code Long.MAX_VALUE} once it ended). */
  public long channelWatermark(int channel) {
    return channelWatermark[channel];
  }

  /** True once {@code channel} delivered its end of stream. */
  public boolean isEnded(int channel) {
    return channelEnded[channel];
  }

  /** True once every channel ended (also for a node without input channels). */
  public boolean allEnded() {
    return openChannels == 0;
  }

  /** The node's input watermark: the minimum over all channels. */
  public long combinedWatermark() {
    long min = Long.MAX_VALUE;
    for (long w : channelWatermark) {
      min = Math.min(min, w);
    }
    return min;
  }

  /**
   * Tells {@code listener} of every (operator, port) whose watermark, the minimum over the channels
   * feeding it, rose since the last call.
   */
  public void advancePorts(PortWatermarkListener listener) throws Exception {
    for (int p = 0; p < portWatermark.length; p++) {
      long w = Long.MAX_VALUE;
      for (int ch = 0; ch < channelWatermark.length; ch++) {
        if (channelPortIndex[ch] == p) {
          w = Math.min(w, channelWatermark[ch]);
        }
      }
      if (w > portWatermark[p]) {
        portWatermark[p] = w;
        listener.advanced(portOperator[p], portNumber[p], w);
      }
    }
  }
}
