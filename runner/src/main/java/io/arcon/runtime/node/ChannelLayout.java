package io.arcon.runtime.node;

import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.Vertex;

/**
 * Numbers the input channels of a receiver instance: one per (input edge, sender instance) that
 * connects to it, in the order of the vertex's input edges. Senders and receivers compute the same
 * numbers independently.
 */
final class ChannelLayout {
  private ChannelLayout() {}

  static int channelCount(Vertex receiver) {
    int n = 0;
    for (Edge e : receiver.inputs()) {
      n += e.kind() == EdgeKind.FORWARD ? 1 : e.source().parallelism();
    }
    return n;
  }

  static int channelIndex(Edge edge, int senderInstance) {
    int base = 0;
    for (Edge e : edge.target().inputs()) {
      if (e == edge) {
        return base + (e.kind() == EdgeKind.FORWARD ? 0 : senderInstance);
      }
      base += e.kind() == EdgeKind.FORWARD ? 1 : e.source().parallelism();
    }
    throw new IllegalArgumentException("Edge " + edge + " is not an input of its target");
  }
}
