package io.arcon.runtime.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ChannelLayoutTest {
  private static final KeyExtractor KEY = e -> new byte[] {(byte) (int) (Integer) e};

  @Test
  void channelsAreNumberedPerInputEdgeAndSenderAndMapBackToTheirEdge() {
    JobGraph g = new JobGraph();
    Vertex a = g.addVertex("a", 3);
    Vertex b = g.addVertex("b", 2);
    Vertex t = g.addVertex("t", 2);
    OperatorNode aOp = a.addOperator("a", () -> null);
    OperatorNode bOp = b.addOperator("b", () -> null);
    OperatorNode tOp = t.addOperator("t", () -> null);
    Edge keyed = g.connect(a, aOp, 0, t, tOp, 0, EdgeKind.KEYED, KEY);
    Edge forward = g.connect(b, bOp, 0, t, tOp, 1, EdgeKind.FORWARD, null);
    Edge broadcast = g.connect(a, aOp, 0, t, tOp, 2, EdgeKind.BROADCAST, null);

    // 3 keyed senders, 1 forward sender, 3 broadcast senders.
    assertEquals(7, ChannelLayout.channelCount(t));
    for (int s = 0; s < 3; s++) {
      assertEquals(s, ChannelLayout.channelIndex(keyed, s));
      assertEquals(4 + s, ChannelLayout.channelIndex(broadcast, s));
    }
    // Every forward sender lands on the same channel of its own receiver.
    assertEquals(3, ChannelLayout.channelIndex(forward, 0));
    assertEquals(3, ChannelLayout.channelIndex(forward, 1));
    for (int ch = 0; ch < 7; ch++) {
      Edge expected = ch < 3 ? keyed : ch == 3 ? forward : broadcast;
      assertSame(expected, ChannelLayout.edgeOfChannel(t, ch));
    }
    assertThrows(IllegalArgumentException.class, () -> ChannelLayout.edgeOfChannel(t, 7));
  }

  @Test
  void aForwardEdgeConnectsEqualInstancesOnly() {
    JobGraph g = new JobGraph();
    Vertex a = g.addVertex("a", 2);
    Vertex b = g.addVertex("b", 2);
    Edge forward =
        g.connect(
            a,
            a.addOperator("a", () -> null),
            0,
            b,
            b.addOperator("b", () -> null),
            0,
            EdgeKind.FORWARD,
            null);
    Edge rebalance =
        g.connect(a, a.operators().get(0), 0, b, b.operators().get(0), 0, EdgeKind.REBALANCE, null);
    assertEquals(true, forward.connects(1, 1));
    assertEquals(false, forward.connects(0, 1));
    assertEquals(true, rebalance.connects(0, 1));
  }
}
