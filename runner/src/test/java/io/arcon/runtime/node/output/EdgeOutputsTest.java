package io.arcon.runtime.node.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.graph.ChannelLayout;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.messages.RuntimeMessage;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.time.SynchronizedTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EdgeOutputsTest {
  /** Messages received per (vertex name, instance). */
  private final Map<String, List<RuntimeMessage>> received = new HashMap<>();

  private final JobGraph graph = new JobGraph();
  private final Vertex sender = graph.addVertex("sender", 3);
  private final OperatorNode senderOp = sender.addOperator("op", () -> null);

  private Edge edgeTo(String name, int parallelism, EdgeKind kind) {
    Vertex target = graph.addVertex(name, parallelism);
    return graph.connect(
        sender,
        senderOp,
        0,
        target,
        target.addOperator(name, () -> null),
        0,
        kind,
        kind == EdgeKind.KEYED ? e -> new byte[] {(byte) (int) (Integer) e} : null);
  }

  private EdgeOutputs outputs(int instance, int batchSize, int credits) {
    return new EdgeOutputs(
        sender,
        instance,
        (vertex, r) ->
            m -> received.computeIfAbsent(vertex.name() + r, k -> new ArrayList<>()).add(m),
        batchSize,
        credits,
        SynchronizedTime.untracked(),
        NodeActivity.NONE);
  }

  private List<Object> elementsAt(String receiver) {
    List<Object> out = new ArrayList<>();
    for (RuntimeMessage m : received.getOrDefault(receiver, List.of())) {
      if (m instanceof RuntimeMessage.EventBatch b) {
        out.addAll(Arrays.asList(b.elements()).subList(0, b.size()));
      }
    }
    return out;
  }

  @Test
  void routesByEdgeKind() throws Exception {
    Edge forward = edgeTo("f", 3, EdgeKind.FORWARD);
    Edge keyed = edgeTo("k", 2, EdgeKind.KEYED);
    Edge broadcast = edgeTo("b", 2, EdgeKind.BROADCAST);
    Edge rebalance = edgeTo("r", 2, EdgeKind.REBALANCE);
    EdgeOutputs out = outputs(1, 100, 8);
    for (int i = 0; i < 10; i++) {
      out.send(forward, i);
      out.send(keyed, i);
      out.send(broadcast, i);
      out.send(rebalance, i);
    }
    assertTrue(received.isEmpty(), "nothing leaves before the batch is full or flushed");
    out.flush();

    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), elementsAt("f1"));
    assertTrue(elementsAt("f0").isEmpty() && elementsAt("f2").isEmpty());
    for (int r = 0; r < 2; r++) {
      // A keyed edge's batches carry each element's key bytes beside it, at the same index.
      for (RuntimeMessage m : received.get("k" + r)) {
        RuntimeMessage.EventBatch b = (RuntimeMessage.EventBatch) m;
        assertNotNull(b.keys(), "a keyed edge's batch has keys");
        for (int i = 0; i < b.size(); i++) {
          assertInstanceOf(Integer.class, b.elements()[i]);
          assertEquals(r, KeyGroups.instanceForKey(b.keys()[i], 2));
          assertArrayEquals(new byte[] {(byte) (int) (Integer) b.elements()[i]}, b.keys()[i]);
        }
      }
      assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), elementsAt("b" + r));
      assertNull(((RuntimeMessage.EventBatch) received.get("b" + r).get(0)).keys());
    }
    assertEquals(10, elementsAt("k0").size() + elementsAt("k1").size());
    // Round robin starting at this instance's index modulo the receivers.
    assertEquals(List.of(1, 3, 5, 7, 9), elementsAt("r0"));
    assertEquals(List.of(0, 2, 4, 6, 8), elementsAt("r1"));
    // Batches carry the receiver's channel number for this sender.
    RuntimeMessage.EventBatch batch = (RuntimeMessage.EventBatch) received.get("k0").get(0);
    assertEquals(ChannelLayout.channelIndex(keyed, 1), batch.channel());
  }

  @Test
  void creditsBoundTheBatchesInFlightAndWatermarksWaitBehindThem() throws Exception {
    Edge forward = edgeTo("f", 3, EdgeKind.FORWARD);
    EdgeOutputs out = outputs(0, 2, 1);
    out.send(forward, 1);
    out.send(forward, 2); // a full batch leaves at once, using the only credit
    assertEquals(1, received.get("f0").size());
    assertFalse(out.isBlocked());
    out.send(forward, 3);
    out.send(forward, 4); // the second batch must wait for credit
    assertTrue(out.isBlocked());
    out.advanceWatermark(10);
    assertEquals(1, received.get("f0").size(), "the watermark queues behind the waiting batch");

    out.onCredit(forward.id(), 0);
    assertFalse(out.isBlocked());
    List<RuntimeMessage> messages = received.get("f0");
    assertEquals(3, messages.size());
    assertInstanceOf(RuntimeMessage.EventBatch.class, messages.get(1));
    assertEquals(10, ((RuntimeMessage.Watermark) messages.get(2)).watermark());
  }

  @Test
  void watermarksOnlyRiseAndEndOfStreamFollowsTheFinalOne() {
    edgeTo("b", 2, EdgeKind.BROADCAST);
    EdgeOutputs out = outputs(0, 4, 4);
    out.advanceWatermark(5);
    out.advanceWatermark(5);
    out.advanceWatermark(3);
    out.advanceWatermark(Long.MAX_VALUE); // the final watermark goes with end of stream only
    out.endOfStream();
    for (int r = 0; r < 2; r++) {
      List<RuntimeMessage> messages = received.get("b" + r);
      assertEquals(3, messages.size(), messages.toString());
      assertEquals(5, ((RuntimeMessage.Watermark) messages.get(0)).watermark());
      assertEquals(Long.MAX_VALUE, ((RuntimeMessage.Watermark) messages.get(1)).watermark());
      assertInstanceOf(RuntimeMessage.EndOfStream.class, messages.get(2));
    }
  }
}
