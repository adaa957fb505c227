package io.arcon.runtime.graph;

/**
 * Numbers the input channels of a receiver instance: one per (input edge, sender instance) that
 * connects to it, in the order of the vertex's input edges. Senders and receivers compute the same
 * numbers independently, so a message carries only its channel number.
 */
public final class ChannelLayout {
  private ChannelLayout() {}

  /** The number of input channels of one instance of {@code receiver}. */
  public static int channelCount(Vertex receiver) {
    int n = 0;
    for (Edge e : receiver.inputs()) {
      n += width(e);
    }
    return n;
  }

  /** The channel on which {@code senderInstance} reaches a receiver instance over {@code edge}. */
  public static int channelIndex(Edge edge, int senderInstance) {
    int base = 0;
    for (Edge e : edge.target().inputs()) {
      if (e == edge) {
        return base + (e.kind() == EdgeKind.FORWARD ? 0 : senderInstance);
      }
      base += width(e);
    }
    throw new IllegalArgumentException("Edge " + edge + " is not an input of its target");
  }

  /** The input edge of {@code receiver} that {@code channel} belongs to. */
  public static Edge edgeOfChannel(Vertex receiver, int channel) {
    int base = 0;
    for (Edge e : receiver.inputs()) {
      base += width(e);
      if (channel < base) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        "Channel " + channel + " is not an input channel of " + receiver);
  }

  /** Channels an edge contributes to each receiver instance: one per sender it connects. */
  private static int width(Edge e) {
    return e.kind() == EdgeKind.FORWARD ? 1 : e.source().parallelism();
  }
}
