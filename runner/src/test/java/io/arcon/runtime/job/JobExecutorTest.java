package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The runtime without Beam: chains, edges, flow control, watermarks, failure, cancellation. */
class JobExecutorTest {
  @TempDir Path stateRoot;

  private RuntimeConfig config(int batchSize, int credits) {
    return config(batchSize, credits, false);
  }

  private RuntimeConfig config(int batchSize, int credits, boolean trackSynchronizedTime) {
    return new RuntimeConfig(
        1000,
        1000,
        batchSize,
        credits,
        stateRoot,
        JobClock.SYSTEM,
        false,
        null,
        trackSynchronizedTime);
  }

  @BeforeEach
  void reset() {
    TestOperators.SumSink.SUMS.clear();
    TestOperators.SumSink.WATERMARKS.clear();
  }

  /** Also with synchronized-time tracking, whose holds must all be taken and released. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void keyedEdgeDeliversEveryElementExactlyOnce(boolean trackSynchronizedTime) throws Exception {
    JobGraph g = new JobGraph();
    AtomicLong emitted = new AtomicLong();
    Vertex src = g.addVertex("source", 3);
    OperatorNode s =
        src.addOperator("range", () -> new TestOperators.RangeSource(0, 100_000, emitted));
    s.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 2);
    AtomicLong consumed = new AtomicLong();
    OperatorNode k =
        sink.addOperator(
            "sum",
            () -> new TestOperators.SumSink("keyed", 0, consumed, emitted, new ArrayList<>()));
    g.connect(
        src,
        s,
        0,
        sink,
        k,
        0,
        EdgeKind.KEYED,
        e -> ByteBuffer.allocate(8).putLong((Long) e).array());
    JobMonitor m = JobExecutor.start("keyed", g, config(128, 4, trackSynchronizedTime));
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(60, TimeUnit.SECONDS));
    assertEquals(99_999L * 100_000L / 2, TestOperators.SumSink.SUMS.get("keyed").get());
    assertEquals(100_000, consumed.get());
  }

  @Test
  void slowReceiverBackPressuresTheSource() throws Exception {
    int batch = 64;
    int credits = 2;
    JobGraph g = new JobGraph();
    AtomicLong emitted = new AtomicLong();
    AtomicLong consumed = new AtomicLong();
    List<Long> lag = Collections.synchronizedList(new ArrayList<>());
    Vertex src = g.addVertex("source", 1);
    OperatorNode s =
        src.addOperator("range", () -> new TestOperators.RangeSource(0, 20_000, emitted));
    s.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 1);
    OperatorNode k =
        sink.addOperator(
            "slow", () -> new TestOperators.SumSink("slow", 2, consumed, emitted, lag));
    g.connect(src, s, 0, sink, k, 0, EdgeKind.FORWARD, null);
    JobMonitor m = JobExecutor.start("slow", g, config(batch, credits));
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(120, TimeUnit.SECONDS));
    // The source may be ahead by the batches in flight plus the one it is filling and one poll.
    long bound = (long) (credits + 2) * batch + 512;
    long maxLag = lag.stream().mapToLong(Long::longValue).max().orElse(0);
    assertTrue(maxLag <= bound, "source ran " + maxLag + " elements ahead, bound " + bound);
    assertEquals(20_000, consumed.get());
  }

  /**
   * A middle node blocked by a slow receiver queues inputs from several senders; when credit
   * returns it must acknowledge each queued batch to the node that sent it.
   */
  @Test
  void blockedNodeReturnsCreditsToTheOriginalSenders() throws Exception {
    JobGraph g = new JobGraph();
    AtomicLong emitted = new AtomicLong();
    AtomicLong consumed = new AtomicLong();
    Vertex src = g.addVertex("source", 2);
    OperatorNode s =
        src.addOperator("range", () -> new TestOperators.RangeSource(0, 30_000, emitted));
    s.declareOutputs(1);
    Vertex middle = g.addVertex("middle", 2);
    OperatorNode fwd =
        middle.addOperator(
            "forward",
            () ->
                new io.arcon.runtime.operator.Operator() {
                  private io.arcon.runtime.operator.OperatorContext ctx;

                  @Override
                  public void open(io.arcon.runtime.operator.OperatorContext context) {
                    ctx = context;
                  }

                  @Override
                  public void processElement(int port, Object element) {
                    ctx.output().emit(0, element);
                  }
                });
    fwd.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 1);
    OperatorNode k =
        sink.addOperator(
            "slow",
            () -> new TestOperators.SumSink("chain", 1, consumed, emitted, new ArrayList<>()));
    g.connect(
        src,
        s,
        0,
        middle,
        fwd,
        0,
        EdgeKind.KEYED,
        e -> ByteBuffer.allocate(8).putLong((Long) e).array());
    g.connect(middle, fwd, 0, sink, k, 0, EdgeKind.REBALANCE, null);
    JobMonitor m = JobExecutor.start("credits", g, config(64, 2));
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(120, TimeUnit.SECONDS), "" + m.failure());
    assertEquals(29_999L * 30_000L / 2, TestOperators.SumSink.SUMS.get("chain").get());
  }

  @Test
  void watermarkIsTheMinimumOverInputsAndEndsAtMax() throws Exception {
    JobGraph g = new JobGraph();
    AtomicLong emitted = new AtomicLong();
    AtomicLong fastWm = new AtomicLong(Long.MIN_VALUE);
    AtomicLong slowWm = new AtomicLong(Long.MIN_VALUE);
    Vertex fast = g.addVertex("fast", 1);
    OperatorNode f =
        fast.addOperator("fast", () -> new TestOperators.RangeSource(0, 5_000, emitted, 0, fastWm));
    f.declareOutputs(1);
    Vertex slow = g.addVertex("slow", 1);
    OperatorNode s =
        slow.addOperator("slow", () -> new TestOperators.RangeSource(0, 640, emitted, 5, slowWm));
    s.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 1);
    List<String> violations = Collections.synchronizedList(new ArrayList<>());
    OperatorNode k =
        sink.addOperator(
            "check",
            () ->
                new io.arcon.runtime.operator.Operator() {
                  @Override
                  public void open(io.arcon.runtime.operator.OperatorContext context) {}

                  @Override
                  public void processElement(int port, Object element) {}

                  @Override
                  public void advanceWatermark(long watermark) {
                    TestOperators.SumSink.WATERMARKS.add(watermark);
                    long bound = Math.min(fastWm.get(), slowWm.get());
                    if (watermark != Long.MAX_VALUE && watermark > bound) {
                      violations.add(watermark + " > min of inputs " + bound);
                    }
                  }
                });
    g.connect(fast, f, 0, sink, k, 0, EdgeKind.FORWARD, null);
    g.connect(slow, s, 0, sink, k, 0, EdgeKind.FORWARD, null);
    JobMonitor m = JobExecutor.start("wm", g, config(32, 4));
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(60, TimeUnit.SECONDS));
    assertEquals(List.of(), violations);
    List<Long> seen = new ArrayList<>(TestOperators.SumSink.WATERMARKS);
    assertTrue(seen.size() > 2, "the watermark advanced in steps: " + seen);
    for (int i = 1; i < seen.size(); i++) {
      assertTrue(seen.get(i) > seen.get(i - 1), "watermarks only advance: " + seen);
    }
    assertEquals(Long.MAX_VALUE, seen.get(seen.size() - 1));
  }

  @Test
  void anOperatorFailureFailsTheJobWithItsCause() throws Exception {
    JobGraph g = new JobGraph();
    Vertex v = g.addVertex("chain", 2);
    OperatorNode s = v.addOperator("endless", TestOperators.EndlessSource::new);
    OperatorNode f = v.addOperator("failing", () -> new TestOperators.FailingOperator(1000));
    v.connect(s, 0, f, 0);
    JobMonitor m = JobExecutor.start("fail", g, config(64, 4));
    assertEquals(JobMonitor.Outcome.FAILED, m.outcome().get(60, TimeUnit.SECONDS));
    assertInstanceOf(IllegalStateException.class, m.failure());
    assertEquals("boom at element 1000", m.failure().getMessage());
  }

  @Test
  void cancelStopsAnEndlessJob() throws Exception {
    JobGraph g = new JobGraph();
    Vertex v = g.addVertex("endless", 2);
    OperatorNode s = v.addOperator("endless", TestOperators.EndlessSource::new);
    s.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 2);
    AtomicLong consumed = new AtomicLong();
    OperatorNode k =
        sink.addOperator(
            "sum",
            () ->
                new TestOperators.SumSink(
                    "endless", 0, consumed, new AtomicLong(), new ArrayList<>()));
    g.connect(v, s, 0, sink, k, 0, EdgeKind.REBALANCE, null);
    JobMonitor m = JobExecutor.start("cancel", g, config(64, 4));
    while (consumed.get() < 10_000) {
      Thread.sleep(10);
    }
    assertTrue(!m.isTerminated());
    m.cancel();
    assertEquals(JobMonitor.Outcome.CANCELLED, m.outcome().get(30, TimeUnit.SECONDS));
    long after = consumed.get();
    Thread.sleep(300);
    long later = consumed.get();
    assertTrue(later - after < 100_000, "processing stops after cancel");
  }

  /**
   * A source must not emit before every node finished opening its operators: a slow node would
   * otherwise still be in setup while a fast one already ran to completion.
   */
  @Test
  void noNodeStartsWorkBeforeEveryNodeIsSetUp() throws Exception {
    JobGraph g = new JobGraph();
    AtomicLong emitted = new AtomicLong();
    AtomicLong slowOpenDoneAt = new AtomicLong();
    AtomicLong firstElementAt = new AtomicLong();
    Vertex src = g.addVertex("source", 1);
    OperatorNode s = src.addOperator("range", () -> new TestOperators.RangeSource(0, 10, emitted));
    s.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 1);
    OperatorNode k =
        sink.addOperator(
            "record",
            () ->
                new io.arcon.runtime.operator.Operator() {
                  @Override
                  public void open(io.arcon.runtime.operator.OperatorContext context) {}

                  @Override
                  public void processElement(int port, Object element) {
                    firstElementAt.compareAndSet(0, System.nanoTime());
                  }
                });
    g.connect(src, s, 0, sink, k, 0, EdgeKind.FORWARD, null);
    Vertex slow = g.addVertex("slow-setup", 1);
    slow.addOperator(
        "slow",
        () ->
            new TestOperators.EndlessSource() {
              @Override
              public void open(io.arcon.runtime.operator.OperatorContext context) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                slowOpenDoneAt.set(System.nanoTime());
              }

              @Override
              public PollResult poll(int maxElements) {
                return PollResult.DONE;
              }
            });
    JobMonitor m = JobExecutor.start("gate", g, config(32, 4));
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(60, TimeUnit.SECONDS), "" + m.failure());
    assertTrue(firstElementAt.get() != 0, "the sink saw elements");
    assertTrue(
        firstElementAt.get() > slowOpenDoneAt.get(),
        "the first element arrived before the slow node finished its setup");
  }
}
