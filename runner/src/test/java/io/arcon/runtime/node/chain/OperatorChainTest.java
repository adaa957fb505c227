package io.arcon.runtime.node.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.KeyedElement;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.JobClock;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.node.activity.NodeActivity;
import io.arcon.runtime.node.bundle.BundleController;
import io.arcon.runtime.node.output.EdgeOutputs;
import io.arcon.runtime.node.time.SynchronizedTime;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorChainTest {
  @TempDir Path stateRoot;
  private final List<String> log = new ArrayList<>();
  private final ManualClock clock = new ManualClock(0);

  /** Logs what the chain calls; forwards elements with its name appended; holds at {@code hold}. */
  private final class Step implements Operator {
    final String name;
    long hold = Long.MAX_VALUE;
    long wakeup = Long.MAX_VALUE;
    OperatorContext context;

    Step(String name) {
      this.name = name;
    }

    @Override
    public void open(OperatorContext ctx) {
      context = ctx;
      log.add(name + " open");
    }

    @Override
    public void processElement(int port, Object element) {
      log.add(name + " " + element + "@" + port);
      context.output().emit(0, element + ">" + name);
    }

    @Override
    public void setCurrentKey(byte[] keyBytes) {
      log.add(name + " key " + new String(keyBytes, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public void advanceWatermark(long watermark) {
      log.add(name + " wm " + (watermark == Long.MAX_VALUE ? "max" : watermark));
    }

    @Override
    public long outputWatermarkHold() {
      return hold;
    }

    @Override
    public long nextProcessingTimeWakeup() {
      return wakeup;
    }

    @Override
    public void advanceProcessingTime(long now) {
      log.add(name + " time " + now);
      wakeup = Long.MAX_VALUE;
    }

    @Override
    public void endOfInput() {
      log.add(name + " end");
    }

    @Override
    public void close() {
      log.add(name + " close");
      if (name.equals("bad")) {
        throw new IllegalStateException("close fails");
      }
    }
  }

  private final JobGraph graph = new JobGraph();
  private final Vertex vertex = graph.addVertex("v", 1);
  private final List<Step> steps = new ArrayList<>();

  /** a -> b, a -> c, b -> c: c's input watermark is bounded by both a's and b's output. */
  private OperatorChain diamond() throws Exception {
    OperatorNode a = add("a");
    OperatorNode b = add("b");
    OperatorNode c = add("c");
    vertex.connect(a, 0, b, 0);
    vertex.connect(a, 0, c, 0);
    vertex.connect(b, 0, c, 1);
    c.declareOutputs(1);
    return open();
  }

  private OperatorNode add(String name) {
    return vertex.addOperator(
        name,
        () -> {
          Step s = new Step(name);
          steps.add(s);
          return s;
        });
  }

  private OperatorChain open() throws Exception {
    EdgeOutputs edges =
        new EdgeOutputs(
            vertex, 0, (v, i) -> m -> {}, 8, 8, SynchronizedTime.untracked(), NodeActivity.NONE);
    OperatorChain chain = new OperatorChain(vertex, 0, edges);
    chain.open(
        new RuntimeConfig(10, 10, 8, 8, stateRoot, clock, false, null, false),
        SynchronizedTime.untracked(),
        Runnable::run);
    return chain;
  }

  private BundleController bundle() {
    return new BundleController(
        new BundleController.Bundle() {
          @Override
          public void start() {
            log.add("bundle start");
          }

          @Override
          public void finish() {
            log.add("bundle finish");
          }
        },
        JobClock.SYSTEM,
        100,
        100,
        false);
  }

  @Test
  void elementsFlowThroughTheChainInOrder() throws Exception {
    OperatorChain chain = diamond();
    assertEquals(List.of("a open", "b open", "c open"), log);
    log.clear();
    chain.deliver(0, 0, "x");
    assertEquals(List.of("a x@0", "b x>a@0", "c x>a>b@1", "c x>a@0"), log);
  }

  @Test
  void aKeyedElementSetsTheKeyAndArrivesUnwrapped() throws Exception {
    OperatorChain chain = diamond();
    log.clear();
    chain.deliver(
        0, 0, new KeyedElement("k".getBytes(java.nio.charset.StandardCharsets.UTF_8), "x"));
    assertEquals(List.of("a key k", "a x@0", "b x>a@0", "c x>a>b@1", "c x>a@0"), log);
  }

  @Test
  void aKeyedBatchSetsEachElementsKeyBeforeItArrives() throws Exception {
    OperatorChain chain = diamond();
    log.clear();
    byte[][] keys = {
      "k".getBytes(java.nio.charset.StandardCharsets.UTF_8),
      null,
      "m".getBytes(java.nio.charset.StandardCharsets.UTF_8)
    };
    // Only elements 1 and 2 of the batch; element 1 has no key (it keeps the operator's key).
    chain.deliver(0, 0, new Object[] {"w", "x", "y"}, keys, 1, 3);
    assertEquals(
        List.of(
            "a x@0",
            "b x>a@0",
            "c x>a>b@1",
            "c x>a@0",
            "a key m",
            "a y@0",
            "b y>a@0",
            "c y>a>b@1",
            "c y>a@0"),
        log);
  }

  @Test
  void watermarksAreHeldByUpstreamOperatorsOfTheChain() throws Exception {
    OperatorChain chain = diamond();
    log.clear();
    steps.get(1).hold = 40; // b holds
    chain.advanceInputWatermark(50);
    assertEquals(List.of("a wm 50", "b wm 50", "c wm 40"), log);
    assertEquals(40, chain.outputWatermark());
    assertEquals(40, steps.get(2).context.currentInputWatermark());
    steps.get(1).hold = Long.MAX_VALUE;
    log.clear();
    chain.advanceInputWatermark(60);
    assertEquals(List.of("a wm 60", "b wm 60", "c wm 60"), log);
    assertEquals(60, chain.outputWatermark());
  }

  @Test
  void processingTimeFiresOnlyDueOperatorsInsideABundle() throws Exception {
    OperatorChain chain = diamond();
    steps.get(1).wakeup = 5;
    steps.get(2).wakeup = 9;
    assertEquals(5, chain.nextProcessingTimeWakeup());
    log.clear();
    BundleController bundle = bundle();
    assertEquals(false, chain.advanceProcessingTime(4, bundle));
    assertEquals(true, chain.advanceProcessingTime(5, bundle));
    assertEquals(List.of("bundle start", "b time 5"), log);
    assertEquals(9, chain.nextProcessingTimeWakeup());
  }

  @Test
  void endOfInputEndsEachOperatorInItsOwnBundleInChainOrder() throws Exception {
    OperatorChain chain = diamond();
    log.clear();
    chain.inputEnded();
    chain.endOfInput(bundle());
    assertEquals(
        List.of(
            "bundle start",
            "a wm max",
            "a end",
            "bundle finish",
            "bundle start",
            "b wm max",
            "b end",
            "bundle finish",
            "bundle start",
            "c wm max",
            "c end",
            "bundle finish"),
        log);
  }

  @Test
  void closeClosesEveryOperatorOnceDespiteFailures() throws Exception {
    add("a");
    add("bad");
    add("c");
    OperatorChain chain = open();
    log.clear();
    chain.close();
    chain.close();
    assertEquals(List.of("a close", "bad close", "c close"), log);
  }

  @Test
  void operatorsGetTheirOwnStateDirectoryAndTheNodesPosition() throws Exception {
    add("a");
    add("b");
    open();
    assertEquals(stateRoot.resolve("v0-op1-i0"), steps.get(1).context.stateDirectory());
    assertEquals(0, steps.get(1).context.instanceIndex());
    assertEquals(1, steps.get(1).context.parallelism());
  }

  @Test
  void aCheckedFailureDownstreamReachesTheCallerUnwrappable() throws Exception {
    OperatorNode a = add("a");
    OperatorNode thrower =
        vertex.addOperator(
            "thrower",
            () ->
                new Operator() {
                  @Override
                  public void open(OperatorContext context) {}

                  @Override
                  public void processElement(int port, Object element) throws Exception {
                    throw new java.io.IOException("disk full");
                  }
                });
    vertex.connect(a, 0, thrower, 0);
    OperatorChain chain = open();
    ChainException e = assertThrows(ChainException.class, () -> chain.deliver(0, 0, "x"));
    assertSame(e.getCause(), ChainException.causeOf(e));
    assertEquals("disk full", ChainException.causeOf(e).getMessage());
  }
}
