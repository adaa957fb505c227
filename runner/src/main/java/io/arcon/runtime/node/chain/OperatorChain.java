package io.arcon.runtime.node.chain;

import io.arcon.runtime.epoch.JobRestore;
import io.arcon.runtime.graph.KeyedElement;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.RuntimeConfig;
import io.arcon.runtime.node.bundle.BundleController;
import io.arcon.runtime.node.output.EdgeOutputs;
import io.arcon.runtime.node.time.SynchronizedTime;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.SourceOperator;
import io.arcon.runtime.operator.StateUsage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * The fused operators of one node instance, in topological order (an operator feeds only operators
 * with a larger index), and the watermark of each: an operator's input watermark is the node's
 * input watermark bounded by the output watermarks of the chain operators feeding it, and its
 * output watermark is its input watermark bounded by its own hold. A source at the head of the
 * chain sets its output watermark itself.
 */
public final class OperatorChain {
  private final Vertex vertex;
  private final int instance;
  private final EdgeOutputs edges;
  private final Operator[] operators;
  private SourceOperator source;

  /** For each operator, the indexes of in-chain operators feeding it. */
  private final int[][] upstream;

  /** The last watermark each operator was advanced to; operators only ever see increases. */
  private final long[] operatorInputWatermark;

  private final long[] operatorOutputWatermark;
  private long inputWatermark = Long.MIN_VALUE;
  private boolean closed;

  public OperatorChain(Vertex vertex, int instance, EdgeOutputs edges) {
    this.vertex = vertex;
    this.instance = instance;
    this.edges = edges;
    List<OperatorNode> nodes = vertex.operators();
    int n = nodes.size();
    operators = new Operator[n];
    operatorInputWatermark = new long[n];
    operatorOutputWatermark = new long[n];
    Arrays.fill(operatorInputWatermark, Long.MIN_VALUE);
    Arrays.fill(operatorOutputWatermark, Long.MIN_VALUE);
    List<List<Integer>> ups = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ups.add(new ArrayList<>());
    }
    for (OperatorNode node : nodes) {
      for (int o = 0; o < node.outputCount(); o++) {
        for (OperatorNode.ChainTarget t : node.chainTargets(o)) {
          if (!ups.get(t.operatorIndex()).contains(node.index())) {
            ups.get(t.operatorIndex()).add(node.index());
          }
        }
      }
    }
    upstream = new int[n][];
    for (int i = 0; i < n; i++) {
      upstream[i] = ups.get(i).stream().mapToInt(Integer::intValue).toArray();
    }
  }

  /**
   * Creates every operator, then opens them in chain order. Operators created before a failure are
   * closed by {@link #close}.
   */
  public void open(RuntimeConfig config, SynchronizedTime syncTime, Executor mailbox)
      throws Exception {
    List<OperatorNode> nodes = vertex.operators();
    ChainOutput[] outputs = new ChainOutput[nodes.size()];
    for (int i = 0; i < operators.length; i++) {
      operators[i] = nodes.get(i).create();
      outputs[i] = new ChainOutput(this, nodes.get(i), edges);
    }
    JobRestore restore = config.restore();
    for (int i = 0; i < operators.length; i++) {
      OperatorRestore operatorRestore =
          restore == null
              ? null
              : restore.restoreFor(vertex.id(), i, instance, vertex.parallelism());
      operators[i].open(
          new ChainOperatorContext(
              this,
              i,
              outputs[i],
              instance,
              vertex.parallelism(),
              config.stateRoot().resolve("v" + vertex.id() + "-op" + i + "-i" + instance),
              config.stateBackendOptions(),
              config.clock(),
              syncTime,
              mailbox,
              operatorRestore,
              config.checkpointing()));
    }
    if (operators.length > 0 && operators[0] instanceof SourceOperator s) {
      source = s;
    }
  }

  /** The source at the head of the chain, or null. */
  public SourceOperator source() {
    return source;
  }

  /** The first operator whose watermark comes from the node's input, not from a source. */
  private int firstFedByInput() {
    return source != null ? 1 : 0;
  }

  /**
   * Hands {@code element} to input {@code port} of operator {@code operator}. A {@link
   * KeyedElement} (emitted keyed inside the chain) first sets the operator's current key, as
   * Flink's {@code setKeyContextElement} does; the operator gets the element without its wrapper.
   * Elements of a keyed edge come with their keys beside them (see the batch form below).
   */
  public void deliver(int operator, int port, Object element) throws Exception {
    Operator op = operators[operator];
    if (element instanceof KeyedElement keyed) {
      op.setCurrentKey(keyed.keyBytes());
      op.processElement(port, keyed.element());
    } else {
      op.processElement(port, element);
    }
  }

  /**
   * Hands a batch's elements {@code from} (inclusive) to {@code to} (exclusive) to input {@code
   * port} of operator {@code operator}; an element with key bytes in {@code keys} (a keyed edge's
   * batch; null for any other) first sets the operator's current key.
   */
  public void deliver(int operator, int port, Object[] elements, byte[][] keys, int from, int to)
      throws Exception {
    if (keys == null) {
      for (int i = from; i < to; i++) {
        deliver(operator, port, elements[i]);
      }
      return;
    }
    Operator op = operators[operator];
    for (int i = from; i < to; i++) {
      byte[] key = keys[i];
      if (key != null) {
        op.setCurrentKey(key);
        op.processElement(port, elements[i]);
      } else {
        deliver(operator, port, elements[i]);
      }
    }
  }

  /** The watermark of input {@code port} of {@code operator} alone rose. */
  public void advancePortWatermark(int operator, int port, long watermark) throws Exception {
    operators[operator].advancePortWatermark(port, watermark);
  }

  public long inputWatermark() {
    return inputWatermark;
  }

  /** True when some operator of the chain sorts its input by event time. */
  public boolean sortsInputByEventTime() {
    for (Operator op : operators) {
      if (op != null && op.sortsInputByEventTime()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The state of the chain's operators: their engines in chain order (comma-separated, each once)
   * and their bytes together; null when no operator keeps state.
   */
  public StateUsage stateUsage() {
    List<String> engines = new ArrayList<>();
    long bytes = 0;
    boolean any = false;
    for (Operator op : operators) {
      StateUsage usage = op == null ? null : op.stateUsage();
      if (usage != null) {
        any = true;
        bytes += usage.approximateBytes();
        if (!engines.contains(usage.engine())) {
          engines.add(usage.engine());
        }
      }
    }
    return any ? new StateUsage(String.join(",", engines), bytes) : null;
  }

  /**
   * The node's input watermark rose to {@code watermark}: advances the operators fed by the input
   * (all but a source) in chain order. Call inside a bundle.
   */
  public void advanceInputWatermark(long watermark) throws Exception {
    inputWatermark = watermark;
    for (int i = firstFedByInput(); i < operators.length; i++) {
      long in = operatorInputWatermark(i);
      advanceOperator(i, in);
      operatorOutputWatermark[i] = Math.min(in, operators[i].outputWatermarkHold());
    }
  }

  /**
   * All input ended: the node's input watermark and a head source's watermark are final. Operators
   * see it with the next {@link #advanceInputWatermark}.
   */
  public void inputEnded() {
    inputWatermark = Long.MAX_VALUE;
    if (source != null) {
      operatorOutputWatermark[0] = Long.MAX_VALUE;
    }
  }

  /** The head source polled and its watermark is now {@code watermark}. */
  public void sourceWatermarkIs(long watermark) {
    operatorOutputWatermark[0] = watermark;
  }

  private void advanceOperator(int i, long watermark) throws Exception {
    if (watermark > operatorInputWatermark[i]) {
      operatorInputWatermark[i] = watermark;
      operators[i].advanceWatermark(watermark);
    }
  }

  /** The input watermark of operator {@code i}. */
  long operatorInputWatermark(int i) {
    long in = inputWatermark;
    for (int u : upstream[i]) {
      in = Math.min(in, operatorOutputWatermark[u]);
    }
    return in;
  }

  /** The chain's output watermark now: the minimum over every operator's output watermark. */
  public long outputWatermark() {
    long out = Long.MAX_VALUE;
    for (int i = 0; i < operators.length; i++) {
      long w =
          i == 0 && source != null
              ? source.currentWatermark()
              : Math.min(operatorInputWatermark(i), operators[i].outputWatermarkHold());
      operatorOutputWatermark[i] = w;
      out = Math.min(out, w);
    }
    return out;
  }

  public void startBundle() throws Exception {
    for (Operator op : operators) {
      op.startBundle();
    }
  }

  public void finishBundle() throws Exception {
    for (Operator op : operators) {
      op.finishBundle();
    }
  }

  /**
   * Fires the processing-time timers due at {@code nowMillis}, opening a bundle first; true if any
   * operator had some.
   */
  public boolean advanceProcessingTime(long nowMillis, BundleController bundle) throws Exception {
    boolean fired = false;
    for (Operator op : operators) {
      if (op.nextProcessingTimeWakeup() <= nowMillis) {
        bundle.ensureOpen();
        op.advanceProcessingTime(nowMillis);
        fired = true;
      }
    }
    return fired;
  }

  /** When some operator next wants processing time to advance ({@code Long.MAX_VALUE}: never). */
  public long nextProcessingTimeWakeup() {
    long next = Long.MAX_VALUE;
    for (Operator op : operators) {
      next = Math.min(next, op.nextProcessingTimeWakeup());
    }
    return next;
  }

  /**
   * True when some operator holds output that its snapshot does not keep (see {@link
   * Operator#holdsOutput}).
   */
  public boolean holdsOutput() {
    for (Operator op : operators) {
      if (op.holdsOutput()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Emits every operator's held output, in chain order, so that what an operator emits into the
   * operators after it is in their snapshots (inside a bundle, before an epoch's snapshot).
   */
  public void emitHeldOutput() throws Exception {
    for (Operator op : operators) {
      if (op.holdsOutput()) {
        op.emitHeldOutput();
      }
    }
  }

  /**
   * Writes every operator's part of epoch {@code epoch} (between bundles); returns the parts that
   * complete asynchronously.
   */
  public List<CompletableFuture<?>> snapshotState(long epoch, IntFunction<Path> operatorDirectory)
      throws Exception {
    List<CompletableFuture<?>> asyncParts = new ArrayList<>();
    for (int i = 0; i < operators.length; i++) {
      operators[i].snapshotState(new Snapshot(epoch, operatorDirectory, i, asyncParts));
    }
    return asyncParts;
  }

  /** Epoch {@code epoch} is durable: every operator may finalize what waited for it. */
  public void epochCompleted(long epoch) throws Exception {
    for (Operator op : operators) {
      op.epochCompleted(epoch);
    }
  }

  /** One operator's view of an epoch snapshot; its directory is created on first use. */
  private static final class Snapshot implements OperatorSnapshot {
    private final long epoch;
    private final IntFunction<Path> operatorDirectory;
    private final int operator;
    private final List<CompletableFuture<?>> asyncParts;
    private Path directory;

    Snapshot(
        long epoch,
        IntFunction<Path> operatorDirectory,
        int operator,
        List<CompletableFuture<?>> asyncParts) {
      this.epoch = epoch;
      this.operatorDirectory = operatorDirectory;
      this.operator = operator;
      this.asyncParts = asyncParts;
    }

    @Override
    public long epoch() {
      return epoch;
    }

    @Override
    public Path directory() {
      if (directory == null) {
        directory = operatorDirectory.apply(operator);
      }
      return directory;
    }

    @Override
    public void completeAsync(CompletableFuture<?> part) {
      asyncParts.add(part);
    }
  }

  /** True while an operator has work of its own left after its inputs ended. */
  public boolean hasPendingWork() {
    for (Operator op : operators) {
      if (op.hasPendingWork()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Every input ended and no operator has work left: in chain order, each operator fed by the input
   * gets the final watermark and flushes in a bundle of its own, so what it emits reaches the next
   * one before that one ends; the source ends last.
   */
  public void endOfInput(BundleController bundle) throws Exception {
    for (int i = firstFedByInput(); i < operators.length; i++) {
      bundle.ensureOpen();
      advanceOperator(i, Long.MAX_VALUE);
      operators[i].endOfInput();
      bundle.finish();
      operatorOutputWatermark[i] = Long.MAX_VALUE;
    }
    if (source != null) {
      bundle.ensureOpen();
      source.endOfInput();
      bundle.finish();
    }
  }

  /**
   * Closes every created operator, once; on success, failure and cancellation. Closing is best
   * effort: the first failure is what the user needs to see.
   */
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Operator op : operators) {
      if (op == null) {
        continue;
      }
      try {
        op.close();
      } catch (Throwable ignored) {
        // Reported failures come from the work, not from cleaning up after it.
      }
    }
  }
}
