package io.arcon.runtime.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.JobClock;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.messages.RuntimeMessage;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.output.MessageSink;
import io.arcon.runtime.node.time.SynchronizedTime;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.SourceOperator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node instance driven message by message, as its actor would, with no actor system. */
class NodeTaskTest {
  @TempDir Path stateRoot;
  private final ManualClock clock = new ManualClock(0);
  private JobClock clockInUse = clock;
  private final List<String> log = new ArrayList<>();

  // What the node asked of its host.
  private final List<RuntimeMessage> downstream = new ArrayList<>();
  private final List<RuntimeMessage> creditsToUpstream = new ArrayList<>();
  private final MessageSink upstream = creditsToUpstream::add;
  private final List<String> signals = new ArrayList<>();
  private final List<Runnable> mailbox = new ArrayList<>();
  private boolean ready;
  private boolean finished;
  private Throwable failure;

  private final NodeEnvironment env =
      new NodeEnvironment() {
        @Override
        public MessageSink of(Vertex vertex, int instance) {
          return downstream::add;
        }

        @Override
        public void signalSelf(NodeSignal signal) {
          signals.add(signal.name());
        }

        @Override
        public void signalSelfLater(NodeSignal signal, long delayMillis) {
          signals.add(signal.name() + " in " + delayMillis);
        }

        @Override
        public void runInMailbox(Runnable task) {
          mailbox.add(task);
        }

        @Override
        public void ready() {
          ready = true;
        }

        @Override
        public void finished() {
          finished = true;
        }

        @Override
        public void failed(Throwable cause) {
          failure = cause;
        }
      };

  /** Adds 1 to every element; wants processing time at {@code wakeup}; fails on -1. */
  private class PlusOne implements Operator {
    private OperatorContext context;
    long wakeup = Long.MAX_VALUE;

    @Override
    public void open(OperatorContext ctx) {
      context = ctx;
      log.add("open");
    }

    @Override
    public void processElement(int port, Object element) throws Exception {
      if ((Long) element == -1) {
        throw new java.io.IOException("bad element");
      }
      context.output().emit(0, (Long) element + 1);
    }

    @Override
    public void advanceWatermark(long watermark) {
      log.add("wm " + (watermark == Long.MAX_VALUE ? "max" : watermark));
    }

    @Override
    public long nextProcessingTimeWakeup() {
      return wakeup;
    }

    @Override
    public void advanceProcessingTime(long now) {
      log.add("time " + now);
      wakeup = Long.MAX_VALUE;
    }

    @Override
    public void endOfInput() {
      log.add("end");
    }

    @Override
    public void close() {
      log.add("close");
    }
  }

  private PlusOne plusOne;
  private int inChannel;

  private OperatorNode addPlusOne(Vertex v) {
    return v.addOperator(
        "plusOne",
        () -> {
          plusOne = new PlusOne();
          return plusOne;
        });
  }

  /** upstream[1] -forward-> node[1]: plusOne -forward-> downstream[1]. */
  private NodeTask node(int batchSize, int credits) {
    return node(2, batchSize, credits);
  }

  /** As {@link #node(int, int)}, with bundles of up to {@code maxBundleSize} elements. */
  private NodeTask node(long maxBundleSize, int batchSize, int credits) {
    JobGraph g = new JobGraph();
    Vertex up = g.addVertex("up", 1);
    OperatorNode upOp = up.addOperator("up", () -> null);
    Vertex v = g.addVertex("node", 1);
    OperatorNode op = addPlusOne(v);
    Vertex down = g.addVertex("down", 1);
    g.connect(up, upOp, 0, v, op, 0, EdgeKind.FORWARD, null);
    g.connect(v, op, 0, down, down.addOperator("down", () -> null), 0, EdgeKind.FORWARD, null);
    return started(
        v,
        new RuntimeConfig(
            maxBundleSize, 1_000, batchSize, credits, stateRoot, clockInUse, false, null, false));
  }

  /** Instance 0 of {@code v}, set up and started as its host would. */
  private NodeTask started(Vertex v, RuntimeConfig config) {
    NodeTask task =
        new NodeTask(v, 0, config, env, SynchronizedTime.untracked(), NodeActivity.NONE);
    task.setUp();
    task.start();
    return task;
  }

  private static RuntimeMessage batch(int channel, Object... elements) {
    return new RuntimeMessage.EventBatch(channel, elements, null, elements.length, 0);
  }

  private List<Object> elementsDownstream() {
    List<Object> out = new ArrayList<>();
    for (RuntimeMessage m : downstream) {
      if (m instanceof RuntimeMessage.EventBatch b) {
        out.addAll(Arrays.asList(b.elements()).subList(0, b.size()));
      }
    }
    return out;
  }

  @Test
  void processesBatchesForwardsWatermarksAndFinishesAtEndOfStream() {
    NodeTask task = node(8, 4);
    assertTrue(ready);
    task.onInput(batch(inChannel, 1L, 2L), upstream);
    assertEquals(1, creditsToUpstream.size(), "every batch is acknowledged");
    assertEquals(List.of(2L, 3L), elementsDownstream(), "a full bundle (2 elements) is flushed");

    task.onInput(new RuntimeMessage.Watermark(inChannel, 10, 0), upstream);
    assertTrue(log.contains("wm 10"));
    assertEquals(
        10, ((RuntimeMessage.Watermark) downstream.get(downstream.size() - 1)).watermark());

    task.onInput(new RuntimeMessage.EndOfStream(inChannel, 0), upstream);
    assertEquals(List.of("open", "wm 10", "wm max", "end", "close"), log);
    int n = downstream.size();
    assertEquals(Long.MAX_VALUE, ((RuntimeMessage.Watermark) downstream.get(n - 2)).watermark());
    assertInstanceOf(RuntimeMessage.EndOfStream.class, downstream.get(n - 1));
    assertTrue(finished);
    assertNull(failure);
  }

  @Test
  void blockedOutputHoldsInputAndItsCreditUntilDownstreamCatchesUp() {
    NodeTask task = node(1, 1);
    task.onInput(batch(inChannel, 1L), upstream); // leaves at once on the only credit
    task.onInput(batch(inChannel, 2L), upstream); // its output waits for credit
    assertEquals(2, creditsToUpstream.size());
    task.onInput(batch(inChannel, 3L), upstream); // held back: output is blocked
    assertEquals(2, creditsToUpstream.size(), "no credit for input that was not processed");
    assertEquals(List.of(2L), elementsDownstream());

    task.onCredit(new RuntimeMessage.Credit(1, 0));
    assertEquals(List.of(2L, 3L), elementsDownstream());
    assertEquals(3, creditsToUpstream.size(), "the held input ran and was acknowledged");
  }

  @Test
  void mailboxTasksRunBetweenBundlesOnTheNode() {
    NodeTask task = node(8, 4);
    task.onInput(batch(inChannel, 1L), upstream); // opens a bundle of up to 8 elements
    assertEquals(List.of(), elementsDownstream(), "the bundle is still open");
    List<String> seen = new ArrayList<>();
    plusOne.context.mailbox().execute(() -> seen.add("task after " + elementsDownstream()));
    assertEquals(1, mailbox.size(), "the task waits in the mailbox");
    task.runTask(mailbox.remove(0));
    assertEquals(List.of("task after [2]"), seen, "the open bundle was finished before the task");
    assertNull(failure);
  }

  @Test
  void aFailureStopsTheNodeWithTheUsersException() {
    NodeTask task = node(8, 4);
    task.onInput(batch(inChannel, -1L), upstream);
    assertInstanceOf(java.io.IOException.class, failure);
    assertEquals("bad element", failure.getMessage());
    assertTrue(log.contains("close"));
    int before = downstream.size();
    task.onInput(batch(inChannel, 5L), upstream);
    assertEquals(before, downstream.size(), "a failed node handles nothing more");
    assertFalse(finished);
  }

  @Test
  void processingTimeWakeUpsAreScheduledOnAFreeRunningClock() {
    long[] now = {0};
    clockInUse = () -> now[0];
    NodeTask task = node(8, 4);
    plusOne.wakeup = 50;
    task.onInput(batch(inChannel, 1L), upstream);
    // The open bundle expires at 1000, the operator wants time at 50: one tick, at the earlier.
    assertEquals(List.of("TICK in 50"), signals);
    now[0] = 50;
    task.onSignal(NodeSignal.TICK);
    assertTrue(log.contains("time 50"));
  }

  @Test
  void ticksStayFewWhenEarlierWakeUpsKeepComing() {
    long[] now = {0};
    clockInUse = () -> now[0];
    NodeTask task = node(1_000_000, 8, 4);
    // The host's scheduler: TICKs by due time. Every 30 ms an element arrives; every 390 ms the
    // operator asks for processing time 50 ms later, sooner than the open bundle's expiry.
    java.util.PriorityQueue<Long> due = new java.util.PriorityQueue<>();
    int maxPending = 0;
    for (long t = 0; t < 20_000; t += 30) {
      while (!due.isEmpty() && due.peek() <= t) {
        now[0] = due.poll();
        task.onSignal(NodeSignal.TICK);
        collectTicks(due, now[0]);
      }
      now[0] = t;
      if (t % 390 == 0) {
        plusOne.wakeup = t + 50;
      }
      task.onInput(batch(inChannel, t), upstream);
      collectTicks(due, now[0]);
      maxPending = Math.max(maxPending, due.size());
    }
    // A sooner wake-up schedules a TICK beside the pending one, which then fires stale; the
    // extra ones end when a TICK finds nothing left to wait for (the bundle expired), so a
    // handful are pending at most, however long this runs (3 here over 20 s).
    assertTrue(maxPending <= 3, "TICKs pending at once, at most: " + maxPending);
  }

  /** Moves the node's requested TICKs into {@code due}, at their due times. */
  private void collectTicks(java.util.PriorityQueue<Long> due, long now) {
    for (String s : signals) {
      if (s.startsWith("TICK in ")) {
        due.add(now + Long.parseLong(s.substring("TICK in ".length())));
      }
    }
    signals.clear();
  }

  @Test
  void underAManualClockTimersFireWhenTheClockIsAdvanced() {
    NodeTask task = node(8, 4);
    plusOne.wakeup = 50;
    task.onInput(batch(inChannel, 1L), upstream);
    assertEquals(List.of("TICK in 1000"), signals, "only the bundle's expiry is scheduled");
    clock.advance(50);
    task.onSignal(NodeSignal.CLOCK_ADVANCED);
    assertTrue(log.contains("time 50"));
  }

  /**
   * upstream[2] -rebalance-> node[1] -forward-> downstream[1], where the node's plusOne sorts its
   * input by event time.
   */
  private NodeTask sortingNodeOfTwoChannels() {
    JobGraph g = new JobGraph();
    Vertex up = g.addVertex("up", 2);
    OperatorNode upOp = up.addOperator("up", () -> null);
    Vertex v = g.addVertex("node", 1);
    OperatorNode op =
        v.addOperator(
            "sorting",
            () -> {
              plusOne =
                  new PlusOne() {
                    @Override
                    public boolean sortsInputByEventTime() {
                      return true;
                    }
                  };
              return plusOne;
            });
    g.connect(up, upOp, 0, v, op, 0, EdgeKind.REBALANCE, null);
    Vertex down = g.addVertex("down", 1);
    g.connect(v, op, 0, down, down.addOperator("down", () -> null), 0, EdgeKind.FORWARD, null);
    return started(
        v, new RuntimeConfig(100, 1_000, 8, 4, stateRoot, clockInUse, false, null, false));
  }

  @Test
  void aChannelFarAheadInEventTimeWaitsWithItsCreditUntilTheOtherCatchesUp() {
    long[] now = {0};
    clockInUse = () -> now[0];
    NodeTask task = sortingNodeOfTwoChannels();
    task.onInput(new RuntimeMessage.Watermark(0, 5_000, 0), upstream);
    task.onInput(new RuntimeMessage.Watermark(1, 1_000, 0), upstream);
    task.onInput(batch(0, 10L), upstream); // channel 0 is 4 s ahead: held, no credit
    task.onInput(batch(0, 20L), upstream);
    task.onInput(batch(1, 1L), upstream); // channel 1 is the slowest: goes on
    assertEquals(1, creditsToUpstream.size(), "only the lagging channel's batch was taken");
    assertEquals(List.of("TICK in 200"), signals, "held input is looked at after the idle time");

    task.onInput(new RuntimeMessage.Watermark(1, 4_000, 0), upstream);
    assertEquals(3, creditsToUpstream.size(), "within a second again: the held batches went on");
    task.onInput(new RuntimeMessage.EndOfStream(0, 0), upstream);
    task.onInput(new RuntimeMessage.EndOfStream(1, 0), upstream);
    assertEquals(List.of(2L, 11L, 21L), elementsDownstream(), "in each channel's order");
    assertTrue(finished);
  }

  @Test
  void aLaggingChannelThatStandsStillDoesNotStallTheOthers() {
    long[] now = {0};
    clockInUse = () -> now[0];
    NodeTask task = sortingNodeOfTwoChannels();
    task.onInput(new RuntimeMessage.Watermark(1, 1_000, 0), upstream);
    task.onInput(new RuntimeMessage.Watermark(0, 5_000, 0), upstream);
    task.onInput(batch(0, 10L), upstream);
    assertEquals(0, creditsToUpstream.size());
    now[0] = 200;
    task.onSignal(NodeSignal.TICK);
    assertEquals(1, creditsToUpstream.size(), "after 200 ms without progress, it goes on");
    task.onInput(batch(0, 20L), upstream);
    assertEquals(2, creditsToUpstream.size(), "and nothing is held until the watermark moves");
  }

  @Test
  void anEpochMarkerLetsHeldInputGoOnSoEveryChannelsMarkerComesThrough() {
    long[] now = {0};
    clockInUse = () -> now[0];
    NodeTask task = sortingNodeOfTwoChannels();
    task.onInput(new RuntimeMessage.Watermark(0, 5_000, 0), upstream);
    task.onInput(new RuntimeMessage.Watermark(1, 1_000, 0), upstream);
    task.onInput(batch(0, 10L), upstream);
    assertEquals(0, creditsToUpstream.size());
    task.onInput(new RuntimeMessage.EpochMarker(1, 1), upstream);
    assertEquals(1, creditsToUpstream.size(), "the held batch went on before the alignment");
  }

  /** Emits 0..n-1, one per poll, watermark = next value; then done. */
  private static final class Counter implements SourceOperator {
    private final int n;
    private OperatorContext context;
    private long next;

    Counter(int n) {
      this.n = n;
    }

    @Override
    public void open(OperatorContext ctx) {
      context = ctx;
    }

    @Override
    public PollResult poll(int maxElements) {
      if (next == n) {
        return PollResult.DONE;
      }
      context.output().emit(0, next++);
      return PollResult.MORE;
    }

    @Override
    public long currentWatermark() {
      return next == n ? Long.MAX_VALUE : next;
    }
  }

  /** Never has anything to emit, never ends: an unbounded source waiting for data. */
  private static final class Idle implements SourceOperator {
    int polls;

    @Override
    public void open(OperatorContext ctx) {}

    @Override
    public PollResult poll(int maxElements) {
      polls++;
      return PollResult.IDLE;
    }

    @Override
    public long currentWatermark() {
      return 0;
    }
  }

  @Test
  void anIdleSourceKeepsAtMostOnePollQueuedAndOneScheduledWhateverWakesIt() {
    JobGraph g = new JobGraph();
    Vertex v = g.addVertex("source", 1);
    Idle idle = new Idle();
    OperatorNode src = v.addOperator("idle", () -> idle);
    OperatorNode op = addPlusOne(v);
    v.connect(src, 0, op, 0);
    Vertex down = g.addVertex("down", 1);
    int edge =
        g.connect(v, op, 0, down, down.addOperator("down", () -> null), 0, EdgeKind.FORWARD, null)
            .id();
    NodeTask task =
        started(v, new RuntimeConfig(100, 1_000, 8, 4, stateRoot, clock, false, null, false));

    // The host's mailbox and scheduler: deliver what the node asked for, oldest first, and after
    // every poll a credit from downstream (as batches sent earlier are consumed).
    int pollSignals = 0;
    for (int i = 0; i < 200; i++) {
      NodeSignal next = NodeSignal.valueOf(signals.remove(0).split(" ")[0]);
      pollSignals += next.name().startsWith("POLL") ? 1 : 0;
      task.onSignal(next);
      task.onCredit(new RuntimeMessage.Credit(edge, 0));
      long queued = signals.stream().filter(s -> s.equals("POLL")).count();
      long scheduled = signals.stream().filter(s -> s.startsWith("POLL_LATER")).count();
      assertTrue(
          queued <= 1 && scheduled <= 1 && !signals.isEmpty(),
          "after " + (i + 1) + " signals the node has asked for " + signals);
    }
    assertEquals(pollSignals, idle.polls, "every poll signal polled once");
    assertTrue(pollSignals > 100, pollSignals + " of 200 signals were polls");
  }

  @Test
  void aSourceChainPollsUntilItsSourceIsDone() {
    JobGraph g = new JobGraph();
    Vertex v = g.addVertex("source", 1);
    OperatorNode src = v.addOperator("counter", () -> new Counter(3));
    OperatorNode op = addPlusOne(v);
    v.connect(src, 0, op, 0);
    Vertex down = g.addVertex("down", 1);
    g.connect(v, op, 0, down, down.addOperator("down", () -> null), 0, EdgeKind.FORWARD, null);
    NodeTask task =
        started(v, new RuntimeConfig(100, 1_000, 8, 4, stateRoot, clock, false, null, false));
    assertEquals(List.of("POLL"), signals);
    for (int i = 0; i < 10 && !finished; i++) {
      task.onSignal(NodeSignal.POLL);
    }
    assertTrue(finished);
    assertEquals(List.of(1L, 2L, 3L), elementsDownstream());
    assertTrue(log.indexOf("wm 1") < log.indexOf("wm max"), log.toString());
    assertSame(RuntimeMessage.EndOfStream.class, downstream.get(downstream.size() - 1).getClass());
  }
}
