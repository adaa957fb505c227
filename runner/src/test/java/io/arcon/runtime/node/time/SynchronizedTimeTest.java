package io.arcon.runtime.node.time;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.job.SynchronizedTimeTracker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SynchronizedTimeTest {
  @Test
  void untrackedIsProcessingTimeThatNeverGoesBack() {
    SynchronizedTime time = SynchronizedTime.untracked();
    assertEquals(100, time.current(100));
    assertEquals(100, time.current(90));
    assertEquals(120, time.current(120));
    List<Long> stamps = new ArrayList<>();
    time.sendStamped(stamps::add);
    assertEquals(List.of(0L), stamps);
    assertEquals(0, time.stampAndHold(1));
  }

  @Test
  void trackedHoldsTheReceiverUntilItsBundleOutputIsSent() {
    ManualClock clock = new ManualClock(1_000);
    JobGraph graph = new JobGraph();
    Vertex up = graph.addVertex("up", 1);
    Vertex down = graph.addVertex("down", 1);
    graph.connect(
        up,
        up.addOperator("up", () -> null),
        0,
        down,
        down.addOperator("down", () -> null),
        0,
        EdgeKind.FORWARD,
        null);
    SynchronizedTimeTracker tracker = new SynchronizedTimeTracker(graph, clock);
    SynchronizedTime sender = SynchronizedTime.tracked(tracker, up.id());
    SynchronizedTime receiver = SynchronizedTime.tracked(tracker, down.id());

    long stamp = sender.stampAndHold(down.id()); // a full batch leaves at 1000
    clock.advance(500);
    assertEquals(1_000, receiver.current(clock.nowMillis()), "held by the batch in flight");
    receiver.batchHandled(stamp);
    assertEquals(1_500, receiver.current(clock.nowMillis()), "its input no longer waits");
    assertEquals(1_000, tracker.outputTime(down.id()), "its output does, until the bundle ends");
    receiver.releaseBundleHolds();
    assertEquals(1_500, tracker.outputTime(down.id()));

    List<Long> stamps = new ArrayList<>();
    sender.sendStamped(
        s -> {
          stamps.add(s);
          sender.hold(down.id(), s);
        });
    clock.advance(100);
    assertEquals(List.of(1_500L), stamps);
    receiver.watermarkHandled(stamps.get(0));
    assertEquals(1_500, tracker.outputTime(down.id()));
    receiver.releaseWatermarkHolds();
    assertEquals(1_600, tracker.outputTime(down.id()));
  }
}
