package io.arcon.runtime.node.output;

import io.arcon.runtime.graph.ChannelLayout;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.time.SynchronizedTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The output channels of one node instance, one per (output edge, connected receiver instance):
 * routes elements by edge kind, batches them, and tells when back-pressure must stop the node.
 */
public final class EdgeOutputs {
  /** The mailbox of a receiver instance. */
  @FunctionalInterface
  public interface Receivers {
    MessageSink of(Vertex vertex, int instance);
  }

  private final int instance;
  private final SynchronizedTime syncTime;

  /** [edge id][receiver instance]; null where the edge does not connect this instance. */
  private final OutputChannel[][] byEdge;

  private final OutputChannel[] all;
  private final int[] rebalanceCursor;
  private long outputWatermark = Long.MIN_VALUE;
  private long sentElements;

  /**
   * @param batchSize elements per batch message
   * @param credits unacknowledged batches a channel may have toward its receiver
   */
  public EdgeOutputs(
      Vertex vertex,
      int instance,
      Receivers receivers,
      int batchSize,
      int credits,
      SynchronizedTime syncTime,
      NodeActivity activity) {
    this.instance = instance;
    this.syncTime = syncTime;
    int maxEdgeId = -1;
    for (Edge e : vertex.outputs()) {
      maxEdgeId = Math.max(maxEdgeId, e.id());
    }
    byEdge = new OutputChannel[maxEdgeId + 1][];
    rebalanceCursor = new int[maxEdgeId + 1];
    List<OutputChannel> channels = new ArrayList<>();
    for (Edge e : vertex.outputs()) {
      Vertex target = e.target();
      OutputChannel[] perReceiver = new OutputChannel[target.parallelism()];
      for (int r = 0; r < perReceiver.length; r++) {
        if (e.connects(instance, r)) {
          perReceiver[r] =
              new OutputChannel(
                  receivers.of(target, r),
                  ChannelLayout.channelIndex(e, instance),
                  target.id(),
                  batchSize,
                  credits,
                  syncTime,
                  activity);
          channels.add(perReceiver[r]);
        }
      }
      byEdge[e.id()] = perReceiver;
      rebalanceCursor[e.id()] = instance % perReceiver.length;
    }
    all = channels.toArray(new OutputChannel[0]);
  }

  /** Sends {@code element} over {@code edge} to the receiver(s) its kind selects. */
  public void send(Edge edge, Object element) throws Exception {
    OutputChannel[] channels = byEdge[edge.id()];
    switch (edge.kind()) {
      case FORWARD -> {
        sentElements++;
        channels[instance].add(element);
      }
      case KEYED -> {
        byte[] key = edge.keyExtractor().keyBytes(element);
        sentElements++;
        channels[KeyGroups.instanceForKey(key, channels.length)].add(key, element);
      }
      case BROADCAST -> {
        sentElements += channels.length;
        for (OutputChannel c : channels) {
          c.add(element);
        }
      }
      case REBALANCE -> {
        int r = rebalanceCursor[edge.id()];
        rebalanceCursor[edge.id()] = (r + 1) % channels.length;
        sentElements++;
        channels[r].add(element);
      }
    }
  }

  /**
   * Elements handed to receivers since this node started, one per receiver (a broadcast element
   * counts once per receiver instance).
   */
  public long sentElements() {
    return sentElements;
  }

  /** Receiver {@code receiverInstance} of edge {@code edgeId} consumed one batch. */
  public void onCredit(int edgeId, int receiverInstance) {
    byEdge[edgeId][receiverInstance].onCredit();
  }

  /** True while some channel waits for credit: the node must stop producing. */
  public boolean isBlocked() {
    for (OutputChannel c : all) {
      if (c.isBlocked()) {
        return true;
      }
    }
    return false;
  }

  /** Ships every partially filled batch (at the end of a bundle). */
  public void flush() {
    syncTime.sendStamped(
        stamp -> {
          for (OutputChannel c : all) {
            c.flush(stamp);
          }
        });
  }

  /** Sends {@code watermark} on every channel if it is above the last one sent. */
  public void advanceWatermark(long watermark) {
    if (watermark <= outputWatermark || watermark == Long.MAX_VALUE) {
      return;
    }
    outputWatermark = watermark;
    syncTime.sendStamped(
        stamp -> {
          for (OutputChannel c : all) {
            c.sendWatermark(watermark, stamp);
          }
        });
  }

  /**
   * Sends the marker of {@code epoch} on every channel, behind everything sent so far: the
   * receivers learn that what follows belongs to the next epoch.
   */
  public void sendEpochMarker(long epoch) {
    syncTime.sendStamped(
        stamp -> {
          for (OutputChannel c : all) {
            c.sendEpochMarker(epoch, stamp);
          }
        });
  }

  /** The final watermark and end of stream on every channel: this node sends nothing more. */
  public void endOfStream() {
    outputWatermark = Long.MAX_VALUE;
    syncTime.sendStamped(
        stamp -> {
          for (OutputChannel c : all) {
            c.sendWatermark(Long.MAX_VALUE, stamp);
            c.sendEndOfStream(stamp);
          }
        });
  }
}
