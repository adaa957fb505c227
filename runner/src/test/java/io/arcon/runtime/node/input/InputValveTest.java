package io.arcon.runtime.node.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InputValveTest {
  private Edge keyed;
  private Edge broadcast;
  private InputValve valve;

  /** Receiver instance 1 of t: main input keyed from a[2] to op 1, side input from b[2] to op 1. */
  @BeforeEach
  void layout() {
    JobGraph g = new JobGraph();
    Vertex a = g.addVertex("a", 2);
    Vertex b = g.addVertex("b", 2);
    Vertex t = g.addVertex("t", 2);
    OperatorNode aOp = a.addOperator("a", () -> null);
    OperatorNode bOp = b.addOperator("b", () -> null);
    OperatorNode head = t.addOperator("head", () -> null);
    OperatorNode join = t.addOperator("join", () -> null);
    t.connect(head, 0, join, 0);
    keyed = g.connect(a, aOp, 0, t, join, 0, EdgeKind.KEYED, e -> new byte[0]);
    broadcast = g.connect(b, bOp, 0, t, join, 1, EdgeKind.BROADCAST, null);
    valve = new InputValve(t, 1);
  }

  @Test
  void channelsKnowTheirOperatorPortAndEdge() {
    assertEquals(4, valve.channelCount());
    for (int ch = 0; ch < 4; ch++) {
      assertEquals(1, valve.targetOperator(ch));
      assertEquals(ch < 2 ? 0 : 1, valve.targetPort(ch));
      assertEquals(ch < 2 ? keyed.id() : broadcast.id(), valve.edgeId(ch));
    }
  }

  @Test
  void theCombinedWatermarkIsTheMinimumOverChannelsAndNeverGoesBack() {
    assertTrue(valve.onWatermark(0, 10));
    assertTrue(valve.onWatermark(1, 20));
    assertTrue(valve.onWatermark(2, 5));
    assertEquals(Long.MIN_VALUE, valve.combinedWatermark(), "channel 3 has no watermark yet");
    assertTrue(valve.onWatermark(3, 7));
    assertEquals(5, valve.combinedWatermark());
    assertFalse(valve.onWatermark(2, 4), "a lower watermark is ignored");
    assertFalse(valve.onWatermark(2, 5), "an equal one too");
    assertEquals(5, valve.combinedWatermark());
  }

  @Test
  void portWatermarksAdvanceOncePerRiseWithTheMinimumOfTheirChannels() throws Exception {
    List<String> advanced = new ArrayList<>();
    InputValve.PortWatermarkListener record =
        (op, port, w) -> advanced.add(op + ":" + port + "@" + w);
    valve.onWatermark(0, 10);
    valve.onWatermark(1, 20);
    valve.advancePorts(record);
    assertEquals(List.of("1:0@10"), advanced, "the side input's channels have no watermark yet");
    advanced.clear();
    valve.onWatermark(2, 3);
    valve.onWatermark(3, 8);
    valve.advancePorts(record);
    valve.advancePorts(record);
    assertEquals(List.of("1:1@3"), advanced, "an unchanged port is not told again");
  }

  @Test
  void endOfStreamMakesAChannelFinalAndCountsOnce() throws Exception {
    for (int ch = 0; ch < 4; ch++) {
      valve.onWatermark(ch, 100);
    }
    assertTrue(valve.onEndOfStream(0));
    assertFalse(valve.onEndOfStream(0), "a second end of the same channel changes nothing");
    assertFalse(valve.allEnded());
    assertEquals(100, valve.combinedWatermark());
    valve.onEndOfStream(1);
    valve.onEndOfStream(2);
    valve.onEndOfStream(3);
    assertTrue(valve.allEnded());
    assertEquals(Long.MAX_VALUE, valve.combinedWatermark());
    List<String> advanced = new ArrayList<>();
    valve.advancePorts((op, port, w) -> advanced.add(port + "@" + w));
    assertEquals(List.of("0@" + Long.MAX_VALUE, "1@" + Long.MAX_VALUE), advanced);
  }
}
