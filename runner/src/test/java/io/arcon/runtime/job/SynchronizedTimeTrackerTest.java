package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.operator.Operator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Synchronized processing time over a diamond: source → {left, right} → sink. */
class SynchronizedTimeTrackerTest {
  private final ManualClock clock = new ManualClock(1_000);
  private int source;
  private int left;
  private int right;
  private int sink;
  private SynchronizedTimeTracker tracker;

  @BeforeEach
  void diamond() {
    JobGraph g = new JobGraph();
    Vertex s = g.addVertex("source", 1);
    Vertex l = g.addVertex("left", 2);
    Vertex r = g.addVertex("right", 2);
    Vertex k = g.addVertex("sink", 2);
    OperatorNode so = op(s);
    OperatorNode lo = op(l);
    OperatorNode ro = op(r);
    OperatorNode ko = op(k);
    g.connect(s, so, 0, l, lo, 0, EdgeKind.REBALANCE, null);
    g.connect(s, so, 0, r, ro, 0, EdgeKind.REBALANCE, null);
    g.connect(l, lo, 0, k, ko, 0, EdgeKind.REBALANCE, null);
    g.connect(r, ro, 0, k, ko, 0, EdgeKind.REBALANCE, null);
    source = s.id();
    left = l.id();
    right = r.id();
    sink = k.id();
    tracker = new SynchronizedTimeTracker(g, clock);
  }

  private static OperatorNode op(Vertex v) {
    OperatorNode node =
        v.addOperator(
            v.name(),
            () ->
                new Operator() {
                  @Override
                  public void open(io.arcon.runtime.operator.OperatorContext context) {}

                  @Override
                  public void processElement(int port, Object element) {}
                });
    node.declareOutputs(1);
    return node;
  }

  @Test
  void withNothingInFlightItIsProcessingTime() {
    assertEquals(1_000, tracker.inputTime(sink));
    clock.advance(5);
    assertEquals(1_005, tracker.outputTime(sink));
  }

  @Test
  void aMessageHoldsItsReceiverAndEverythingDownstreamUntilItsOutputIsSent() {
    long stamp = tracker.stampAndHold(source, left);
    assertEquals(1_000, stamp);
    clock.advance(50);

    assertEquals(1_000, tracker.inputTime(left));
    assertEquals(1_050, tracker.inputTime(right), "a parallel branch is not held");
    assertEquals(1_000, tracker.inputTime(sink));

    tracker.inputHandled(left, stamp);
    assertEquals(1_050, tracker.inputTime(left), "handled: the receiver's input moves on");
    assertEquals(1_000, tracker.outputTime(left));
    assertEquals(1_000, tracker.inputTime(sink), "its output is not sent yet");

    long forwarded = tracker.stampAndHold(left, sink);
    assertEquals(1_000, forwarded, "what the held vertex sends carries the held time");
    tracker.outputReleased(left, stamp);
    assertEquals(1_000, tracker.inputTime(sink), "the forwarded message still holds the sink");

    tracker.inputHandled(sink, forwarded);
    tracker.outputReleased(sink, forwarded);
    assertEquals(1_050, tracker.inputTime(sink));
  }

  @Test
  void equalStampsAreCountedOneByOne() {
    long first = tracker.stampAndHold(source, right);
    long second = tracker.stampAndHold(source, right);
    clock.advance(10);
    tracker.inputHandled(right, first);
    tracker.outputReleased(right, first);
    assertEquals(1_000, tracker.inputTime(sink));
    tracker.inputHandled(right, second);
    tracker.outputReleased(right, second);
    assertEquals(1_010, tracker.inputTime(sink));
  }

  @Test
  void releasingAHoldThatWasNeverTakenIsABug() {
    assertThrows(IllegalStateException.class, () -> tracker.inputHandled(left, 1_000));
  }
}
