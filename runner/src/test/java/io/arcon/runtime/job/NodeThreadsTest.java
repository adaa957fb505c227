package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.arcon.runtime.dispatch.StickyExecutorConfigurator;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.SourceOperator;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which threads run a job's nodes: pinned (each instance keeps its thread) or shared. */
class NodeThreadsTest {
  private static final long PER_INSTANCE = 200_000;

  @TempDir Path stateRoot;

  /** Per "vertex/instance", the names of the threads that ran its work. */
  private final Map<String, Set<String>> threadsOf = new ConcurrentHashMap<>();

  private final AtomicLong consumed = new AtomicLong();

  /**
   * With stealing out of the way (a thread takes another's nodes only when that one is stuck in a
   * node's work for an hour), each node instance runs on its home thread alone.
   */
  @Test
  void pinnedNodesEachRunOnOneThreadOfTheirPool() throws Exception {
    String stealAfter = NodeThreads.DISPATCHER + ".sticky-executor.steal-after";
    System.setProperty(stealAfter, "1h");
    ConfigFactory.invalidateCaches();
    try {
      runJob(new NodeThreads(true, 2));
    } finally {
      System.clearProperty(stealAfter);
      ConfigFactory.invalidateCaches();
    }
    assertEquals(4, threadsOf.size(), threadsOf.toString());
    Set<String> all = ConcurrentHashMap.newKeySet();
    for (Map.Entry<String, Set<String>> e : threadsOf.entrySet()) {
      assertEquals(1, e.getValue().size(), e.getKey() + " ran on " + e.getValue());
      all.addAll(e.getValue());
    }
    assertEquals(2, all.size(), "threads: " + all);
    for (String thread : all) {
      assertTrue(thread.contains(NodeThreads.DISPATCHER), thread);
    }
    assertEquals(2 * PER_INSTANCE, consumed.get());
  }

  @Test
  void sharedNodesRunOnTheNodeDispatchersForkJoinPool() throws Exception {
    runJob(new NodeThreads(false, 3));
    Set<String> all = ConcurrentHashMap.newKeySet();
    threadsOf.values().forEach(all::addAll);
    assertTrue(all.size() <= 3, "threads: " + all);
    for (String thread : all) {
      assertTrue(thread.contains(NodeThreads.DISPATCHER), thread);
    }
    assertEquals(2 * PER_INSTANCE, consumed.get());
  }

  @Test
  void theDefaultPinsOneThreadPerProcessor() {
    int processors = Runtime.getRuntime().availableProcessors();
    var config = JobExecutor.pekkoConfig(NodeThreads.DEFAULT, null);
    assertEquals(
        StickyExecutorConfigurator.class.getName(),
        config.getString(NodeThreads.DISPATCHER + ".executor"));
    assertEquals(processors, config.getInt(NodeThreads.DISPATCHER + ".sticky-executor.threads"));
  }

  @Test
  void aNegativeThreadCountIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new NodeThreads(true, -1));
    assertTrue(e.getMessage().contains("--nodeThreads"), e.getMessage());
  }

  private void runJob(NodeThreads threads) throws Exception {
    JobGraph g = new JobGraph();
    Vertex src = g.addVertex("source", 2);
    OperatorNode s = src.addOperator("count", () -> new CountingSource(threadsOf));
    s.declareOutputs(1);
    Vertex sink = g.addVertex("sink", 2);
    OperatorNode k = sink.addOperator("sink", () -> new RecordingSink(threadsOf, consumed));
    g.connect(src, s, 0, sink, k, 0, EdgeKind.FORWARD, null);
    RuntimeConfig config =
        new RuntimeConfig(1000, 1000, 64, 4, stateRoot, JobClock.SYSTEM, false, null, false)
            .withNodeThreads(threads);
    JobMonitor m = JobExecutor.start("threads", g, config);
    assertEquals(JobMonitor.Outcome.DONE, m.outcome().get(60, TimeUnit.SECONDS));
  }

  /** Emits {@link #PER_INSTANCE} numbers per instance, noting the thread of every poll. */
  private static final class CountingSource implements SourceOperator {
    private final Map<String, Set<String>> threadsOf;
    private OperatorContext ctx;
    private long next;

    CountingSource(Map<String, Set<String>> threadsOf) {
      this.threadsOf = threadsOf;
    }

    @Override
    public void open(OperatorContext context) {
      ctx = context;
    }

    @Override
    public PollResult poll(int maxElements) {
      note(threadsOf, "source/" + ctx.instanceIndex());
      for (int i = 0; i < maxElements && next < PER_INSTANCE; i++) {
        ctx.output().emit(0, next++);
      }
      return next < PER_INSTANCE ? PollResult.MORE : PollResult.DONE;
    }

    @Override
    public long currentWatermark() {
      return next >= PER_INSTANCE ? Long.MAX_VALUE : next - 1;
    }
  }

  /** Counts its input, noting the thread of every element. */
  private static final class RecordingSink implements Operator {
    private final Map<String, Set<String>> threadsOf;
    private final AtomicLong consumed;
    private OperatorContext ctx;

    RecordingSink(Map<String, Set<String>> threadsOf, AtomicLong consumed) {
      this.threadsOf = threadsOf;
      this.consumed = consumed;
    }

    @Override
    public void open(OperatorContext context) {
      ctx = context;
    }

    @Override
    public void processElement(int port, Object element) {
      note(threadsOf, "sink/" + ctx.instanceIndex());
      consumed.incrementAndGet();
    }
  }

  private static void note(Map<String, Set<String>> threadsOf, String node) {
    threadsOf
        .computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet())
        .add(Thread.currentThread().getName());
  }
}
