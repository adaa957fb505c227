package io.arcon.portability.execution;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.ForwardOperator;
import io.arcon.runner.operators.GroupByKeyOperator;
import io.arcon.runner.operators.ImpulseSource;
import io.arcon.runner.operators.TestStreamSource;
import io.arcon.runner.state.KeyEncoder;
import io.arcon.runner.state.StateBackendSelection;
import io.arcon.runner.translation.StatefulStep;
import io.arcon.runner.translation.Translation;
import io.arcon.runtime.graph.EdgeKind;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.KeyExtractor;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.operator.Operator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.fnexecution.wire.WireCoders;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VoidCoder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.transforms.windowing.WindowMappingFn;
import org.apache.beam.sdk.util.construction.PTransformTranslation;
import org.apache.beam.sdk.util.construction.RehydratedComponents;
import org.apache.beam.sdk.util.construction.TestStreamTranslation;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;
import org.apache.beam.sdk.util.construction.graph.FusedPipeline;
import org.apache.beam.sdk.util.construction.graph.PipelineNode;
import org.apache.beam.sdk.util.construction.graph.QueryablePipeline;
import org.apache.beam.sdk.util.construction.graph.SideInputReference;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;

/**
 * Builds the Arcon job graph of a fused portable pipeline. The runner executes Impulse, GroupByKey,
 * Flatten and TestStream itself (with the operators Java pipelines use, over the runner-side wire
 * coders: elements the runner does not understand stay encoded bytes); every executable stage
 * becomes an {@link ExecutableStageOperator}. Placement follows the Java translation: a step joins
 * its input's chain unless it needs a shuffle (GroupByKey, user state or timers), side inputs, or
 * inputs from several chains.
 */
final class PortableTranslator {
  private record Producer(Vertex vertex, OperatorNode operator, int output) {}

  private final JobGraph graph = new JobGraph();
  private final Map<String, Producer> producers = new HashMap<>();
  private final Map<String, Producer> sidePaneProducers = new HashMap<>();
  private final List<StatefulStep> statefulSteps = new ArrayList<>();
  private final RunnerApi.Components components;
  private final ArconPipelineOptions options;
  private final StateBackendSelection stateBackends;
  private final MetricsContainerStepMap metrics;
  private final JobBundles bundles;
  private ManualClock manualClock;
  private JobActivity activity;

  private PortableTranslator(
      RunnerApi.Components components,
      ArconPipelineOptions options,
      MetricsContainerStepMap metrics,
      JobBundles bundles) {
    this.components = components;
    this.options = options;
    this.stateBackends = StateBackendSelection.of(options);
    this.metrics = metrics;
    this.bundles = bundles;
  }

  static Translation translate(
      FusedPipeline fused,
      ArconPipelineOptions options,
      MetricsContainerStepMap metrics,
      JobBundles bundles) {
    RunnerApi.Pipeline pipeline = fused.toPipeline();
    PortableTranslator t =
        new PortableTranslator(pipeline.getComponents(), options, metrics, bundles);
    QueryablePipeline q =
        QueryablePipeline.forTransforms(
            pipeline.getRootTransformIdsList(), pipeline.getComponents());
    for (PipelineNode.PTransformNode transform : q.getTopologicallyOrderedTransforms()) {
      t.translate(transform);
    }
    stateBackendsCheck(t);
    return new Translation(t.graph, t.manualClock, t.activity, List.copyOf(t.statefulSteps), false);
  }

  private static void stateBackendsCheck(PortableTranslator t) {
    t.stateBackends.checkRulesAndLog(t.statefulSteps.stream().map(StatefulStep::fullName).toList());
  }

  private void translate(PipelineNode.PTransformNode node) {
    String urn = node.getTransform().getSpec().getUrn();
    try {
      switch (urn) {
        case PTransformTranslation.IMPULSE_TRANSFORM_URN -> impulse(node);
        case PTransformTranslation.FLATTEN_TRANSFORM_URN -> flatten(node);
        case PTransformTranslation.GROUP_BY_KEY_TRANSFORM_URN -> groupByKey(node);
        case PTransformTranslation.TEST_STREAM_TRANSFORM_URN -> testStream(node);
        case ExecutableStage.URN -> stage(node);
        default ->
            throw new IllegalArgumentException(
                "Transform '"
                    + node.getTransform().getUniqueName()
                    + "' has URN '"
                    + urn
                    + "', which ArconRunner cannot execute: the runner executes "
                    + PortablePipelinePreparation.RUNNER_URNS
                    + " itself and runs every other leaf transform in an SDK harness, but this"
                    + " one reached the runner unfused. Check that the SDK and the transform"
                    + " agree on the URN.");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Cannot translate transform '" + node.getTransform().getUniqueName() + "': " + e, e);
    }
  }

  private String nameOf(PipelineNode.PTransformNode node) {
    String name = node.getTransform().getUniqueName();
    return name.isEmpty() ? node.getId() : name;
  }

  private static String onlyOutput(PipelineNode.PTransformNode node) {
    return node.getTransform().getOutputsMap().values().iterator().next();
  }

  private static String onlyInput(PipelineNode.PTransformNode node) {
    return node.getTransform().getInputsMap().values().iterator().next();
  }

  private Producer producer(String pCollectionId) {
    Producer p = producers.get(pCollectionId);
    if (p == null) {
      throw new IllegalArgumentException(
          "PCollection " + pCollectionId + " is consumed before any transform produces it");
    }
    return p;
  }

  private void produce(String pCollectionId, Vertex vertex, OperatorNode op, int output) {
    producers.put(pCollectionId, new Producer(vertex, op, output));
  }

  private OperatorNode source(String name, Supplier<? extends Operator> factory) {
    Vertex v = graph.addVertex(name, options.getParallelism());
    return v.addOperator(name, factory);
  }

  private Vertex vertexOf(OperatorNode op) {
    for (Vertex v : graph.vertices()) {
      if (v.operators().contains(op)) {
        return v;
      }
    }
    throw new IllegalStateException("Operator " + op.name() + " is in no vertex");
  }

  // ---------------------------------------------------------------- runner-executed transforms

  private void impulse(PipelineNode.PTransformNode node) {
    OperatorNode op = source(nameOf(node), ImpulseSource::new);
    op.declareOutputs(1);
    produce(onlyOutput(node), vertexOf(op), op, 0);
  }

  private void flatten(PipelineNode.PTransformNode node) throws IOException {
    String name = nameOf(node);
    String output = onlyOutput(node);
    List<String> inputs = new ArrayList<>(node.getTransform().getInputsMap().values());
    List<Producer> sources = new ArrayList<>();
    for (String in : inputs) {
      sources.add(inSameCoder(producer(in), in, output, name));
    }
    Vertex common = null;
    boolean same = !sources.isEmpty();
    for (Producer p : sources) {
      Vertex v = p.vertex();
      if (common != null && common != v) {
        same = false;
      }
      common = v;
    }
    OperatorNode op;
    if (same) {
      op = common.addOperator(name, ForwardOperator::new);
      for (Producer p : sources) {
        common.connect(p.operator(), p.output(), op, 0);
      }
    } else {
      Vertex v = graph.addVertex(name, options.getParallelism());
      op = v.addOperator(name, ForwardOperator::new);
      for (Producer p : sources) {
        graph.connect(p.vertex(), p.operator(), p.output(), v, op, 0, EdgeKind.FORWARD, null);
      }
    }
    op.declareOutputs(1);
    produce(output, vertexOf(op), op, 0);
  }

  /**
   * {@code input}'s elements in the runner form of {@code output}: as they are when both have the
   * same wire coder, else re-encoded through the SDK's coders, which the runner must be able to
   * load.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private Producer inSameCoder(Producer producer, String input, String output, String step)
      throws IOException {
    Coder<?> inputRunner = runnerCoder(input);
    Coder<?> outputRunner = runnerCoder(output);
    if (inputRunner.equals(outputRunner)) {
      return producer;
    }
    CoderTranscoding.Coders coders;
    try {
      coders =
          new CoderTranscoding.Coders(
              (Coder) inputRunner,
              (Coder) sdkCoder(input),
              (Coder) sdkCoder(output),
              (Coder) outputRunner);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Flatten '"
              + step
              + "' reads "
              + input
              + " with coder "
              + inputRunner
              + " but writes "
              + output
              + " with "
              + outputRunner
              + "; ArconRunner converts between them only when it can load both coders (Beam's"
              + " standard coders, or Java coders on its class path): "
              + e.getMessage(),
          e);
    }
    OperatorNode transcoding =
        producer.vertex().addOperator(step + "/" + input, () -> new CoderTranscoding(coders));
    producer.vertex().connect(producer.operator(), producer.output(), transcoding, 0);
    transcoding.declareOutputs(1);
    return new Producer(producer.vertex(), transcoding, 0);
  }

  /** The SDK side's wire coder of a PCollection (its own coders, unknown ones length-prefixed). */
  private Coder<?> sdkCoder(String pCollectionId) throws IOException {
    RunnerApi.Components.Builder builder = components.toBuilder();
    String id =
        WireCoders.addSdkWireCoder(
            PipelineNode.pCollection(
                pCollectionId, components.getPcollectionsOrThrow(pCollectionId)),
            builder,
            RunnerApi.ExecutableStagePayload.WireCoderSetting.getDefaultInstance());
    return RehydratedComponents.forComponents(builder.build()).getCoder(id);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void groupByKey(PipelineNode.PTransformNode node) throws IOException {
    String name = nameOf(node);
    String input = onlyInput(node);
    WindowedValues.FullWindowedValueCoder<?> inputCoder = runnerCoder(input);
    if (!(inputCoder.getValueCoder() instanceof KvCoder<?, ?> kv)) {
      throw new IllegalArgumentException(
          "GroupByKey '"
              + name
              + "' reads "
              + input
              + ", whose coder is not a KV coder: "
              + inputCoder.getValueCoder());
    }
    GroupByKeyOperator.Spec spec =
        groupByKeySpec(name, input, kv.getKeyCoder(), kv.getValueCoder());
    KeyExtractor byKey = KeyEncoder.ofWindowedKv(kv.getKeyCoder());
    Producer p = producer(input);
    Vertex v = graph.addVertex(name, options.getParallelism());
    OperatorNode op = v.addOperator(name, () -> GroupByKeyOperator.create(spec));
    graph.connect(p.vertex(), p.operator(), p.output(), v, op, 0, EdgeKind.KEYED, byKey);
    op.declareOutputs(1);
    produce(onlyOutput(node), v, op, 0);
  }

  /**
   * A runner-side GroupByKey named {@code name} over {@code input}, with {@code input}'s windowing
   * strategy, in the state backend chosen for it (registered as a stateful step).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private GroupByKeyOperator.Spec groupByKeySpec(
      String name, String input, Coder<?> keyCoder, Coder<?> valueCoder) {
    WindowingStrategy<?, ?> windowing = windowingStrategy(input, name);
    String engine = stateBackends.engineFor(name);
    statefulSteps.add(new StatefulStep(name, engine, StatefulStep.Kind.GROUP_BY_KEY));
    return new GroupByKeyOperator.Spec(
        name,
        options,
        keyCoder,
        windowing,
        (SystemReduceFn) SystemReduceFn.buffering(valueCoder),
        engine,
        new OperatorMetrics(metrics, name));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void testStream(PipelineNode.PTransformNode node) throws IOException {
    String output = onlyOutput(node);
    RunnerApi.TestStreamPayload payload =
        RunnerApi.TestStreamPayload.parseFrom(node.getTransform().getSpec().getPayload());
    TestStream<?> testStream =
        TestStreamTranslation.testStreamFromProtoPayload(
            payload, RehydratedComponents.forComponents(components));
    WindowedValues.FullWindowedValueCoder<?> runnerCoder = runnerCoder(output);
    List events =
        RunnerForm.testStreamEvents(
            testStream.getEvents(), testStream.getValueCoder(), runnerCoder.getValueCoder());
    if (manualClock == null) {
      manualClock = new ManualClock(System.currentTimeMillis());
      activity = new JobActivity();
    }
    ManualClock clock = manualClock;
    JobActivity jobActivity = activity;
    OperatorNode op =
        source(nameOf(node), () -> new TestStreamSource<>(events, clock, jobActivity));
    op.declareOutputs(1);
    produce(output, vertexOf(op), op, 0);
  }

  // ---------------------------------------------------------------- executable stages

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void stage(PipelineNode.PTransformNode node) throws IOException {
    RunnerApi.ExecutableStagePayload payload =
        RunnerApi.ExecutableStagePayload.parseFrom(node.getTransform().getSpec().getPayload());
    ExecutableStage stage = ExecutableStage.fromPayload(payload);
    Environments.check(stage);
    String name = stageName(node, stage);
    String input = stage.getInputPCollection().getId();
    WindowedValues.FullWindowedValueCoder<?> inputCoder = runnerCoder(input);
    Coder<? extends BoundedWindow> windowCoder = inputCoder.getWindowCoder();
    List<String> outputs =
        stage.getOutputPCollections().stream().map(PipelineNode.PCollectionNode::getId).toList();
    List<SideInputReference> sideRefs = new ArrayList<>(stage.getSideInputs());
    List<ExecutableStageOperator.SideInputSpec> sides = new ArrayList<>();
    for (SideInputReference ref : sideRefs) {
      String collection = ref.collection().getId();
      boolean panes = triggered(collection);
      sides.add(
          new ExecutableStageOperator.SideInputSpec(
              ref.transform().getId(),
              ref.localName(),
              windowMapping(ref),
              (Coder) (panes ? paneCoder(collection) : runnerCoder(collection)),
              panes));
    }
    boolean keyed = !stage.getUserStates().isEmpty() || !stage.getTimers().isEmpty();
    StageKeys keys = null;
    String engine = null;
    if (keyed) {
      if (!(inputCoder.getValueCoder() instanceof KvCoder<?, ?> kv)) {
        throw new IllegalArgumentException(
            "Stage '"
                + name
                + "' uses state or timers but its input "
                + input
                + " is not KV-coded: "
                + inputCoder.getValueCoder());
      }
      keys = new StageKeys(kv.getKeyCoder());
      engine = stateBackends.engineFor(name);
      statefulSteps.add(new StatefulStep(name, engine, StatefulStep.Kind.STATEFUL_PARDO));
    }
    ExecutableStageOperator.Spec spec =
        new ExecutableStageOperator.Spec(
            name,
            stage,
            outputs,
            sides,
            keys,
            windowCoder,
            (Coder) inputCoder,
            engine,
            windowExpirations(stage, input),
            requiresTimeSortedInput(stage),
            allowedLateness(input),
            bundles,
            metrics);
    Supplier<Operator> factory = () -> new ExecutableStageOperator(spec);
    Producer p = producer(input);
    OperatorNode op;
    Vertex v;
    if (keyed) {
      StageKeys k = keys;
      v = graph.addVertex(name, options.getParallelism());
      op = v.addOperator(name, factory);
      graph.connect(p.vertex(), p.operator(), p.output(), v, op, 0, EdgeKind.KEYED, k::ofElement);
    } else if (!sideRefs.isEmpty()) {
      v = graph.addVertex(name, options.getParallelism());
      op = v.addOperator(name, factory);
      graph.connect(p.vertex(), p.operator(), p.output(), v, op, 0, EdgeKind.FORWARD, null);
    } else {
      v = p.vertex();
      op = v.addOperator(name, factory);
      v.connect(p.operator(), p.output(), op, 0);
    }
    for (int i = 0; i < sideRefs.size(); i++) {
      String collection = sideRefs.get(i).collection().getId();
      Producer s = sides.get(i).panes() ? sidePanes(collection) : producer(collection);
      graph.connect(s.vertex(), s.operator(), s.output(), v, op, i + 1, EdgeKind.BROADCAST, null);
    }
    op.declareOutputs(outputs.size());
    for (int i = 0; i < outputs.size(); i++) {
      produce(outputs.get(i), v, op, i);
    }
  }

  // ---------------------------------------------------------------- triggered side inputs

  /** Whether {@code pCollectionId}'s windowing has a trigger other than the default one. */
  private boolean triggered(String pCollectionId) {
    return components
            .getWindowingStrategiesOrThrow(
                components.getPcollectionsOrThrow(pCollectionId).getWindowingStrategyId())
            .getTrigger()
            .getTriggerCase()
        != RunnerApi.Trigger.TriggerCase.DEFAULT;
  }

  /** The coder of the panes {@link #sidePanes} emits: {@code KV<Void, Iterable<V>>} per window. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private WindowedValues.FullWindowedValueCoder<?> paneCoder(String pCollectionId)
      throws IOException {
    WindowedValues.FullWindowedValueCoder<?> elements = runnerCoder(pCollectionId);
    return WindowedValues.FullWindowedValueCoder.of(
        KvCoder.of(VoidCoder.of(), IterableCoder.of((Coder) elements.getValueCoder())),
        elements.getWindowCoder());
  }

  /**
   * A triggered side input grouped into panes on the runner side, once per PCollection however many
   * stages read it: every element under one key, through a GroupByKey with the PCollection's own
   * windowing strategy, so each firing of its trigger emits the window's content as one pane — what
   * Beam's classic runners materialize a view from.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private Producer sidePanes(String pCollectionId) throws IOException {
    Producer existing = sidePaneProducers.get(pCollectionId);
    if (existing != null) {
      return existing;
    }
    String name = components.getPcollectionsOrThrow(pCollectionId).getUniqueName() + "/SidePanes";
    GroupByKeyOperator.Spec spec =
        groupByKeySpec(
            name, pCollectionId, VoidCoder.of(), runnerCoder(pCollectionId).getValueCoder());
    Producer p = producer(pCollectionId);
    OperatorNode keying = p.vertex().addOperator(name + "/Key", VoidKeying::new);
    p.vertex().connect(p.operator(), p.output(), keying, 0);
    keying.declareOutputs(1);
    Vertex v = graph.addVertex(name, options.getParallelism());
    OperatorNode op = v.addOperator(name, () -> GroupByKeyOperator.create(spec));
    graph.connect(p.vertex(), keying, 0, v, op, 0, EdgeKind.KEYED, element -> new byte[0]);
    op.declareOutputs(1);
    Producer panes = new Producer(v, op, 0);
    sidePaneProducers.put(pCollectionId, panes);
    return panes;
  }

  private long allowedLateness(String pCollectionId) {
    return components
        .getWindowingStrategiesOrThrow(
            components.getPcollectionsOrThrow(pCollectionId).getWindowingStrategyId())
        .getAllowedLateness();
  }

  /** Whether the stage's first DoFn needs its input in event-time order. */
  private static boolean requiresTimeSortedInput(ExecutableStage stage) throws IOException {
    for (PipelineNode.PTransformNode t : stage.getTransforms()) {
      if (t.getTransform().getSpec().getUrn().equals(PTransformTranslation.PAR_DO_TRANSFORM_URN)
          && RunnerApi.ParDoPayload.parseFrom(t.getTransform().getSpec().getPayload())
              .getRequiresTimeSortedInput()) {
        return true;
      }
    }
    return false;
  }

  /** The stage's DoFns with {@code @OnWindowExpiration}, whose expiry timers the runner sets. */
  private List<ExecutableStageOperator.WindowExpiration> windowExpirations(
      ExecutableStage stage, String input) throws IOException {
    long allowedLateness = allowedLateness(input);
    List<ExecutableStageOperator.WindowExpiration> out = new ArrayList<>();
    for (PipelineNode.PTransformNode t : stage.getTransforms()) {
      if (!t.getTransform().getSpec().getUrn().equals(PTransformTranslation.PAR_DO_TRANSFORM_URN)) {
        continue;
      }
      RunnerApi.ParDoPayload pardo =
          RunnerApi.ParDoPayload.parseFrom(t.getTransform().getSpec().getPayload());
      if (!pardo.getOnWindowExpirationTimerFamilySpec().isEmpty()) {
        out.add(
            new ExecutableStageOperator.WindowExpiration(
                t.getId(), pardo.getOnWindowExpirationTimerFamilySpec(), allowedLateness));
      }
    }
    return out;
  }

  /** A readable stage name: its first and last user transforms. */
  private static String stageName(PipelineNode.PTransformNode node, ExecutableStage stage) {
    List<String> names =
        stage.getTransforms().stream().map(t -> t.getTransform().getUniqueName()).toList();
    if (names.isEmpty()) {
      return node.getId();
    }
    String first = names.get(0);
    String last = names.get(names.size() - 1);
    return first.equals(last) ? first : first + " .. " + last;
  }

  private WindowMappingFn<?> windowMapping(SideInputReference ref) throws IOException {
    WindowingStrategy<?, ?> ws =
        windowingStrategy(ref.collection().getId(), ref.transform().getTransform().getUniqueName());
    WindowFn<?, ?> fn = ws.getWindowFn();
    return fn.getDefaultWindowMappingFn();
  }

  private WindowedValues.FullWindowedValueCoder<?> runnerCoder(String pCollectionId)
      throws IOException {
    PipelineNode.PCollectionNode node =
        PipelineNode.pCollection(pCollectionId, components.getPcollectionsOrThrow(pCollectionId));
    Coder<?> coder = WireCoders.instantiateRunnerWireCoder(node, components);
    if (!(coder instanceof WindowedValues.FullWindowedValueCoder<?> full)) {
      throw new IllegalArgumentException(
          "PCollection " + pCollectionId + " has no windowed wire coder: " + coder);
    }
    return full;
  }

  private WindowingStrategy<?, ?> windowingStrategy(String pCollectionId, String step) {
    String id = components.getPcollectionsOrThrow(pCollectionId).getWindowingStrategyId();
    try {
      return RehydratedComponents.forComponents(components).getWindowingStrategy(id);
    } catch (IOException | RuntimeException e) {
      RunnerApi.WindowingStrategy proto = components.getWindowingStrategiesOrThrow(id);
      throw new IllegalArgumentException(
          "Step '"
              + step
              + "' needs the window function '"
              + proto.getWindowFn().getUrn()
              + "' on the runner side, which ArconRunner cannot load: it understands Beam's"
              + " standard window functions (global, fixed, sliding, sessions) and Java ones ("
              + e.getMessage()
              + ")",
          e);
    }
  }
}
