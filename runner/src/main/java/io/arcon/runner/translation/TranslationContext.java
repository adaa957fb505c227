package io.arcon.runner.translation;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.progress.ReadProgress;
import io.arcon.runner.state.KeyEncoder;
import io.arcon.runner.state.StateBackendSelection;
import io.arcon.runner.tss.TssLink;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.operator.Operator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.AppliedPTransform;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * What translation accumulates: the job graph under construction, where each PCollection is
 * produced, where each side input's materialized panes come from, the stateful steps and whether a
 * synchronized-processing-time trigger is used. Placement decides fusion: a step joins its input's
 * chain unless it needs a shuffle (keyed input), side inputs, or inputs from several chains.
 */
public final class TranslationContext {
  /** Where a PCollection is produced: an operator output in a vertex. */
  public record Producer(Vertex vertex, OperatorNode operator, int output) {}

  private final JobGraph graph = new JobGraph();
  private final Pipeline pipeline;
  private final ArconPipelineOptions options;
  private final MetricsContainerStepMap metrics;
  private final StateBackendSelection stateBackends;
  private final Map<PCollection<?>, Producer> producers = new HashMap<>();
  private final Map<PCollectionView<?>, PCollection<?>> viewPanes = new HashMap<>();
  private final List<StatefulStep> statefulSteps = new ArrayList<>();
  private boolean usesSynchronizedTime;
  private ManualClock manualClock;
  private JobActivity activity;

  private final TssLink tss;
  private final ReadProgress reads;

  TranslationContext(
      Pipeline pipeline,
      ArconPipelineOptions options,
      MetricsContainerStepMap metrics,
      StateBackendSelection stateBackends,
      TssLink tss,
      ReadProgress reads) {
    this.tss = tss;
    this.reads = reads;
    this.pipeline = pipeline;
    this.options = options;
    this.metrics = metrics;
    this.stateBackends = stateBackends;
  }

  /** Where the job's reads report what they read, or null when nobody observes them. */
  public ReadProgress reads() {
    return reads;
  }

  /** Where stateful ParDos export their user states, or null when TSS is off. */
  public TssLink tss() {
    return tss;
  }

  /** The job's manual processing-time clock, created when a TestStream needs one. */
  public ManualClock manualClock() {
    if (manualClock == null) {
      manualClock = new ManualClock(System.currentTimeMillis());
      activity = new JobActivity();
    }
    return manualClock;
  }

  /** In-flight tracking, present together with the manual clock. */
  public JobActivity activity() {
    manualClock();
    return activity;
  }

  boolean usesManualClock() {
    return manualClock != null;
  }

  public JobGraph graph() {
    return graph;
  }

  public ArconPipelineOptions options() {
    return options;
  }

  /** {@code node} as an applied transform of the pipeline being translated. */
  public AppliedPTransform<?, ?, ?> appliedTransform(TransformHierarchy.Node node) {
    return node.toAppliedPTransform(pipeline);
  }

  public CoderRegistry coderRegistry() {
    return pipeline.getCoderRegistry();
  }

  public int parallelism() {
    return options.getParallelism();
  }

  public OperatorMetrics metricsFor(String stepName) {
    return new OperatorMetrics(metrics, stepName);
  }

  /**
   * Records {@code stepName} as a stateful step of {@code kind} and returns its state engine (the
   * per-transform choice, else the default). Only the translator creating a stateful step calls
   * this, so the job's stateful steps are exactly the ones asked for.
   */
  public String stateEngineFor(String stepName, StatefulStep.Kind kind) {
    String engine = stateBackends.engineFor(stepName);
    statefulSteps.add(new StatefulStep(stepName, engine, kind));
    return engine;
  }

  /** The stateful steps recorded so far, in translation (topological) order. */
  List<StatefulStep> statefulSteps() {
    return List.copyOf(statefulSteps);
  }

  /** Notes that a step groups by a synchronized-processing-time trigger. */
  public void noteSynchronizedTimeTrigger() {
    usesSynchronizedTime = true;
  }

  boolean usesSynchronizedTime() {
    return usesSynchronizedTime;
  }

  public Producer producer(PCollection<?> pc) {
    Producer p = producers.get(pc);
    if (p == null) {
      throw new IllegalStateException("No producer translated yet for " + pc);
    }
    return p;
  }

  public void setProducer(PCollection<?> pc, Vertex vertex, OperatorNode op, int output) {
    producers.put(pc, new Producer(vertex, op, output));
  }

  /** Makes {@code op}'s only output the producer of {@code node}'s only output. */
  public void produce(TransformHierarchy.Node node, OperatorNode op) {
    op.declareOutputs(1);
    setProducer(TransformNodes.onlyOutput(node), vertexOf(op), op, 0);
  }

  public void registerViewPanes(PCollectionView<?> view, PCollection<?> panes) {
    viewPanes.put(view, panes);
  }

  /** A new chain head with no inputs (sources). */
  public OperatorNode addSource(String name, Supplier<? extends Operator> factory) {
    Vertex v = graph.addVertex(name, parallelism());
    return v.addOperator(name, factory);
  }

  public Vertex vertexOf(OperatorNode op) {
    for (Vertex v : graph.vertices()) {
      if (v.operators().contains(op)) {
        return v;
      }
    }
    throw new IllegalStateException("Operator " + op.name() + " is in no vertex");
  }

  /** A step fused into the chain that produces its only input. */
  public OperatorNode addFused(
      String name, Supplier<? extends Operator> factory, PCollection<?> in) {
    Producer p = producer(in);
    OperatorNode op = p.vertex().addOperator(name, factory);
    p.vertex().connect(p.operator(), p.output(), op, 0);
    return op;
  }

  /**
   * A step reading {@code inputs} on port 0: fused when they all come from one chain, otherwise the
   * head of a new chain with a forward edge per input.
   */
  public OperatorNode addMultiInput(
      String name, Supplier<? extends Operator> factory, List<PCollection<?>> inputs) {
    Vertex common = null;
    boolean same = !inputs.isEmpty();
    for (PCollection<?> in : inputs) {
      Vertex v = producer(in).vertex();
      if (common == null) {
        common = v;
      } else if (common != v) {
        same = false;
      }
    }
    if (same) {
      OperatorNode op = common.addOperator(name, factory);
      for (PCollection<?> in : inputs) {
        Producer p = producer(in);
        common.connect(p.operator(), p.output(), op, 0);
      }
      return op;
    }
    Vertex v = graph.addVertex(name, parallelism());
    OperatorNode op = v.addOperator(name, factory);
    for (PCollection<?> in : inputs) {
      connect(in, v, op, 0, EdgeKind.FORWARD);
    }
    return op;
  }

  /** The head of a new chain whose main input arrives by key. */
  public OperatorNode addKeyed(
      String name, Supplier<? extends Operator> factory, PCollection<?> keyedInput) {
    Coder<?> keyCoder = keyCoderOf(keyedInput);
    Producer p = producer(keyedInput);
    return addKeyedFrom(name, factory, p.vertex(), p.operator(), p.output(), keyCoder);
  }

  /** The head of a new chain fed by key from an operator output that has no PCollection. */
  public OperatorNode addKeyedFrom(
      String name,
      Supplier<? extends Operator> factory,
      Vertex fromVertex,
      OperatorNode from,
      int output,
      Coder<?> keyCoder) {
    Vertex v = graph.addVertex(name, parallelism());
    OperatorNode op = v.addOperator(name, factory);
    graph.connect(
        fromVertex, from, output, v, op, 0, EdgeKind.KEYED, KeyEncoder.ofWindowedKv(keyCoder));
    return op;
  }

  /** The head of a new chain whose main input arrives unchanged from its producer. */
  public OperatorNode addUnfused(
      String name, Supplier<? extends Operator> factory, PCollection<?> input) {
    Vertex v = graph.addVertex(name, parallelism());
    OperatorNode op = v.addOperator(name, factory);
    connect(input, v, op, 0, EdgeKind.FORWARD);
    return op;
  }

  /** Broadcasts the materialized panes of each side input to ports 1.. of {@code op}. */
  public void connectSideInputs(OperatorNode op, List<PCollectionView<?>> views) {
    Vertex v = vertexOf(op);
    for (int i = 0; i < views.size(); i++) {
      PCollection<?> panes = viewPanes.get(views.get(i));
      if (panes == null) {
        throw new IllegalStateException(
            "Side input " + views.get(i) + " was not materialized before its use");
      }
      connect(panes, v, op, i + 1, EdgeKind.BROADCAST);
    }
  }

  /** An unkeyed edge from {@code in}'s producer (keyed edges go through {@link #addKeyedFrom}). */
  private void connect(PCollection<?> in, Vertex target, OperatorNode op, int port, EdgeKind kind) {
    Producer p = producer(in);
    graph.connect(p.vertex(), p.operator(), p.output(), target, op, port, kind, null);
  }

  private static Coder<?> keyCoderOf(PCollection<?> keyedInput) {
    Coder<?> coder = keyedInput.getCoder();
    if (!(coder instanceof KvCoder<?, ?> kv)) {
      throw new IllegalArgumentException(
          "A keyed step needs KV input with a KvCoder, but " + keyedInput + " has coder " + coder);
    }
    return kv.getKeyCoder();
  }
}
