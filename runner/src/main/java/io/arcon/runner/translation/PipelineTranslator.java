package io.arcon.runner.translation;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.operators.AssignWindowsOperator;
import io.arcon.runner.operators.BoundedReadSource;
import io.arcon.runner.operators.DoFnOperator;
import io.arcon.runner.operators.ForwardOperator;
import io.arcon.runner.operators.GroupByKeyOperator;
import io.arcon.runner.operators.ImpulseSource;
import io.arcon.runner.operators.PartialCombineOperator;
import io.arcon.runner.operators.SplittableProcessOperator;
import io.arcon.runner.operators.TestStreamSource;
import io.arcon.runner.operators.ToKeyedWorkItemOperator;
import io.arcon.runner.operators.UnboundedReadSource;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.SplittableParDoViaKeyedWorkItems;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.io.BoundedReadFromUnboundedSource;
import org.apache.beam.sdk.io.BoundedSource;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.runners.AppliedPTransform;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.AppliedCombineFn;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.util.construction.PTransformTranslation;
import org.apache.beam.sdk.util.construction.ParDoTranslation;
import org.apache.beam.sdk.util.construction.SplittableParDo;
import org.apache.beam.sdk.util.construction.TransformInputs;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowingStrategy;

/**
 * Walks a (classic, Java) pipeline in topological order and builds the Arcon job graph: one
 * operator per Beam primitive, fused into chains by {@link TranslationContext}'s placement rules.
 */
public final class PipelineTranslator extends Pipeline.PipelineVisitor.Defaults {
  private final Pipeline pipeline;
  private final TranslationContext ctx;

  private PipelineTranslator(Pipeline pipeline, TranslationContext ctx) {
    this.pipeline = pipeline;
    this.ctx = ctx;
  }

  /** The translated job and what executing it needs besides the graph. */
  public record Translation(JobGraph graph, ManualClock manualClock, JobActivity activity) {}

  /** Translates {@code pipeline} (with Arcon's overrides already applied). */
  public static Translation translate(
      Pipeline pipeline,
      ArconPipelineOptions options,
      MetricsContainerStepMap metrics,
      Map<String, String> stateEngines) {
    TranslationContext ctx = new TranslationContext(options, metrics, stateEngines);
    pipeline.traverseTopologically(new PipelineTranslator(pipeline, ctx));
    return ctx.usesManualClock()
        ? new Translation(ctx.graph(), ctx.manualClock(), ctx.activity())
        : new Translation(ctx.graph(), null, null);
  }

  @Override
  public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
    PTransform<?, ?> transform = node.getTransform();
    if (transform instanceof Combine.PerKey<?, ?, ?> perKey && isLiftable(node, perKey)) {
      translateLiftedCombine(node, perKey);
      return CompositeBehavior.DO_NOT_ENTER_TRANSFORM;
    }
    if (transform instanceof BoundedReadFromUnboundedSource<?> read) {
      BoundedUnboundedRead spec = BoundedUnboundedRead.of(read);
      if (spec != null) {
        translateBoundedReadFromUnbounded(node, spec);
        return CompositeBehavior.DO_NOT_ENTER_TRANSFORM;
      }
    }
    return CompositeBehavior.ENTER_TRANSFORM;
  }

  @Override
  public void visitPrimitiveTransform(TransformHierarchy.Node node) {
    PTransform<?, ?> transform = node.getTransform();
    if (transform instanceof CreateArconView.MaterializeView<?, ?> materialize) {
      PCollection<?> panes = onlyInput(node);
      ctx.registerViewPanes(materialize.view(), panes);
      TranslationContext.Producer p = ctx.producer(panes);
      ctx.setProducer(onlyOutput(node), p.vertex(), p.operator(), p.output());
      return;
    }
    if (transform instanceof SplittableParDoViaKeyedWorkItems.GBKIntoKeyedWorkItems<?, ?>) {
      PCollection<?> input = onlyInput(node);
      produce(node, ctx.addKeyed(node.getFullName(), ToKeyedWorkItemOperator::new, input));
      return;
    }
    if (transform instanceof SplittableParDoViaKeyedWorkItems.ProcessElements<?, ?, ?, ?, ?> pe) {
      translateSplittableProcess(node, pe);
      return;
    }
    String urn = PTransformTranslation.urnForTransformOrNull(transform);
    if (urn == null) {
      throw unsupported(node, transform.getClass().getName());
    }
    switch (urn) {
      case PTransformTranslation.IMPULSE_TRANSFORM_URN -> translateImpulse(node);
      case PTransformTranslation.READ_TRANSFORM_URN -> translateRead(node);
      case PTransformTranslation.PAR_DO_TRANSFORM_URN -> translateParDo(node);
      case PTransformTranslation.GROUP_BY_KEY_TRANSFORM_URN -> translateGroupByKey(node);
      case PTransformTranslation.FLATTEN_TRANSFORM_URN -> translateFlatten(node);
      case PTransformTranslation.ASSIGN_WINDOWS_TRANSFORM_URN -> translateAssignWindows(node);
      case PTransformTranslation.TEST_STREAM_TRANSFORM_URN -> translateTestStream(node);
      default -> throw unsupported(node, urn);
    }
  }

  private static UnsupportedOperationException unsupported(
      TransformHierarchy.Node node, String what) {
    return new UnsupportedOperationException(
        "ArconRunner cannot run transform '" + node.getFullName() + "' (" + what + ")");
  }

  private static PCollection<?> onlyInput(TransformHierarchy.Node node) {
    List<PCollection<?>> ins = new ArrayList<>(node.getInputs().values());
    if (ins.size() != 1) {
      throw new IllegalStateException(node.getFullName() + " has " + ins.size() + " inputs");
    }
    return ins.get(0);
  }

  private static PCollection<?> onlyOutput(TransformHierarchy.Node node) {
    List<PCollection<?>> outs = new ArrayList<>(node.getOutputs().values());
    if (outs.size() != 1) {
      throw new IllegalStateException(node.getFullName() + " has " + outs.size() + " outputs");
    }
    return outs.get(0);
  }

  private void produce(TransformHierarchy.Node node, OperatorNode op) {
    op.declareOutputs(1);
    ctx.setProducer(onlyOutput(node), ctx.vertexOf(op), op, 0);
  }

  private void translateImpulse(TransformHierarchy.Node node) {
    produce(node, ctx.addSource(node.getFullName(), ImpulseSource::new));
  }

  /**
   * Beam expands a bounded read of an unbounded source into one blocking DoFn call per split (100
   * splits by default, each reading up to its time limit), which at low parallelism runs the splits
   * one after another; read as a limited unbounded source, they all progress together.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateBoundedReadFromUnbounded(
      TransformHierarchy.Node node, BoundedUnboundedRead spec) {
    ArconPipelineOptions options = ctx.options();
    var metrics = ctx.metricsFor(node.getFullName());
    UnboundedSource<?, ?> source = spec.source();
    UnboundedReadSource.Limits limits = spec.limits();
    produce(
        node,
        ctx.addSource(
            node.getFullName(), () -> new UnboundedReadSource(source, options, metrics, limits)));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateRead(TransformHierarchy.Node node) {
    PTransform<?, ?> t = node.getTransform();
    ArconPipelineOptions options = ctx.options();
    var metrics = ctx.metricsFor(node.getFullName());
    OperatorNode op;
    if (t instanceof SplittableParDo.PrimitiveBoundedRead<?> r) {
      BoundedSource<?> source = r.getSource();
      op = ctx.addSource(node.getFullName(), () -> new BoundedReadSource(source, options, metrics));
    } else if (t instanceof Read.Bounded<?> r) {
      BoundedSource<?> source = r.getSource();
      op = ctx.addSource(node.getFullName(), () -> new BoundedReadSource(source, options, metrics));
    } else if (t instanceof SplittableParDo.PrimitiveUnboundedRead<?> r) {
      UnboundedSource<?, ?> source = r.getSource();
      op =
          ctx.addSource(
              node.getFullName(), () -> new UnboundedReadSource(source, options, metrics));
    } else if (t instanceof Read.Unbounded<?> r) {
      UnboundedSource<?, ?> source = r.getSource();
      op =
          ctx.addSource(
              node.getFullName(), () -> new UnboundedReadSource(source, options, metrics));
    } else {
      throw unsupported(node, t.getClass().getName());
    }
    produce(node, op);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateParDo(TransformHierarchy.Node node) {
    if (!(node.getTransform() instanceof ParDo.MultiOutput<?, ?> pardo)) {
      throw unsupported(node, node.getTransform().getClass().getName());
    }
    AppliedPTransform<?, ?, ?> app = node.toAppliedPTransform(pipeline);
    String name = node.getFullName();
    DoFn<?, ?> fn = pardo.getFn();
    DoFnSignature signature = DoFnSignatures.getSignature(fn.getClass());
    if (signature.processElement().isSplittable()) {
      throw unsupported(node, "splittable DoFn " + fn.getClass().getName());
    }
    PCollection<?> main =
        (PCollection<?>) TransformInputs.nonAdditionalInputs(app).iterator().next();
    Map<TupleTag<?>, PCollection<?>> outputs = node.getOutputs();
    TupleTag<?> mainTag = pardo.getMainOutputTag();
    List<TupleTag<?>> additional = new ArrayList<>(pardo.getAdditionalOutputTags().getAll());
    Map<TupleTag<?>, Integer> indexes = new HashMap<>();
    List<TupleTag<?>> ordered = new ArrayList<>();
    ordered.add(mainTag);
    ordered.addAll(additional);
    Map<TupleTag<?>, Coder<?>> outputCoders = new HashMap<>();
    for (TupleTag<?> tag : ordered) {
      indexes.put(tag, indexes.size());
      PCollection<?> out = outputs.get(tag);
      if (out != null) {
        outputCoders.put(tag, out.getCoder());
      }
    }
    List<String> outputNames = new ArrayList<>();
    for (TupleTag<?> tag : ordered) {
      PCollection<?> out = outputs.get(tag);
      outputNames.add(out == null ? null : out.getName());
    }
    List<PCollectionView<?>> sideInputs = new ArrayList<>(pardo.getSideInputs().values());
    boolean stateful = signature.usesState() || signature.usesTimers();
    Coder<?> keyCoder = null;
    if (stateful) {
      if (!(main.getCoder() instanceof KvCoder<?, ?> kv)) {
        throw new IllegalArgumentException(
            "Stateful ParDo " + name + " needs KV input with a KvCoder, got " + main.getCoder());
      }
      keyCoder = kv.getKeyCoder();
    }
    DoFnOperator.Spec spec =
        new DoFnOperator.Spec(
            name,
            fn,
            ctx.options(),
            main.getCoder(),
            outputCoders,
            mainTag,
            additional,
            indexes,
            main.getWindowingStrategy(),
            sideInputs,
            pardo.getSideInputs(),
            ParDoTranslation.getSchemaInformation(app),
            keyCoder,
            stateful,
            signature.processElement().requiresTimeSortedInput(),
            ctx.stateEngineFor(name),
            ctx.metricsFor(name).withOutputs(outputNames));
    OperatorNode op;
    if (stateful) {
      op = ctx.addKeyed(name, () -> new DoFnOperator<>(spec), main);
    } else if (!sideInputs.isEmpty()) {
      op = ctx.addUnfused(name, () -> new DoFnOperator<>(spec), main);
    } else {
      op = ctx.addFused(name, () -> new DoFnOperator<>(spec), main);
    }
    if (!sideInputs.isEmpty()) {
      ctx.connectSideInputs(op, sideInputs);
    }
    op.declareOutputs(ordered.size());
    for (TupleTag<?> tag : ordered) {
      PCollection<?> out = outputs.get(tag);
      if (out != null) {
        ctx.setProducer(out, ctx.vertexOf(op), op, indexes.get(tag));
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateGroupByKey(TransformHierarchy.Node node) {
    PCollection<?> input = onlyInput(node);
    KvCoder<?, ?> kv = (KvCoder<?, ?>) input.getCoder();
    String name = node.getFullName();
    GroupByKeyOperator.Spec spec =
        new GroupByKeyOperator.Spec(
            name,
            ctx.options(),
            kv.getKeyCoder(),
            input.getWindowingStrategy(),
            (SystemReduceFn) SystemReduceFn.buffering(kv.getValueCoder()),
            ctx.stateEngineFor(name),
            ctx.metricsFor(name).withOutputs(outputNamesOf(node)));
    produce(node, ctx.addKeyed(name, () -> new GroupByKeyOperator<>(spec), input));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateSplittableProcess(
      TransformHierarchy.Node node,
      SplittableParDoViaKeyedWorkItems.ProcessElements<?, ?, ?, ?, ?> pe) {
    String name = node.getFullName();
    AppliedPTransform<?, ?, ?> app = node.toAppliedPTransform(pipeline);
    PCollection<?> main =
        (PCollection<?>) TransformInputs.nonAdditionalInputs(app).iterator().next();
    Map<TupleTag<?>, PCollection<?>> outputs = node.getOutputs();
    List<TupleTag<?>> ordered = new ArrayList<>();
    ordered.add(pe.getMainOutputTag());
    ordered.addAll(pe.getAdditionalOutputTags().getAll());
    Map<TupleTag<?>, Integer> indexes = new HashMap<>();
    Map<TupleTag<?>, Coder<?>> outputCoders = new HashMap<>();
    for (TupleTag<?> tag : ordered) {
      indexes.put(tag, indexes.size());
      if (outputs.get(tag) != null) {
        outputCoders.put(tag, outputs.get(tag).getCoder());
      }
    }
    SplittableProcessOperator.Spec spec =
        new SplittableProcessOperator.Spec(
            name,
            pe,
            ctx.options(),
            main.getCoder(),
            outputCoders,
            indexes,
            main.getWindowingStrategy(),
            ctx.stateEngineFor(name),
            ctx.metricsFor(name));
    // Fused behind the keyed work-item wrapper: the keyed shuffle happened there.
    OperatorNode op = ctx.addFused(name, () -> new SplittableProcessOperator<>(spec), main);
    List<PCollectionView<?>> sideInputs = pe.getSideInputs();
    if (!sideInputs.isEmpty()) {
      ctx.connectSideInputs(op, sideInputs);
    }
    op.declareOutputs(ordered.size());
    for (TupleTag<?> tag : ordered) {
      if (outputs.get(tag) != null) {
        ctx.setProducer(outputs.get(tag), ctx.vertexOf(op), op, indexes.get(tag));
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateTestStream(TransformHierarchy.Node node) {
    List events = ((TestStream<?>) node.getTransform()).getEvents();
    ManualClock clock = ctx.manualClock();
    JobActivity activity = ctx.activity();
    produce(
        node,
        ctx.addSource(node.getFullName(), () -> new TestStreamSource<>(events, clock, activity)));
  }

  private void translateFlatten(TransformHierarchy.Node node) {
    List<PCollection<?>> inputs = new ArrayList<>(node.getInputs().values());
    produce(node, ctx.addMultiInput(node.getFullName(), ForwardOperator::new, inputs));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateAssignWindows(TransformHierarchy.Node node) {
    PCollection<?> input = onlyInput(node);
    WindowFn<?, ?> windowFn = ((Window.Assign<?>) node.getTransform()).getWindowFn();
    OperatorNode op =
        windowFn == null
            ? ctx.addFused(node.getFullName(), ForwardOperator::new, input)
            : ctx.addFused(
                node.getFullName(),
                () -> new AssignWindowsOperator(SerializableUtils.clone(windowFn)),
                input);
    produce(node, op);
  }

  /**
   * Whether a Combine.PerKey runs as a partial combine plus one keyed merge (stateful under the
   * composite's name) instead of being expanded into its GroupByKey.
   */
  public static boolean isLiftable(TransformHierarchy.Node node, Combine.PerKey<?, ?, ?> perKey) {
    if (!(perKey.getFn() instanceof Combine.CombineFn<?, ?, ?>)
        || !perKey.getSideInputs().isEmpty()
        || node.getInputs().size() != 1) {
      return false;
    }
    PCollection<?> input = onlyInput(node);
    WindowingStrategy<?, ?> ws = input.getWindowingStrategy();
    return input.getCoder() instanceof KvCoder
        && ws.getWindowFn().isNonMerging()
        && ws.getTrigger() instanceof DefaultTrigger;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void translateLiftedCombine(
      TransformHierarchy.Node node, Combine.PerKey<?, ?, ?> perKey) {
    String name = node.getFullName();
    PCollection<?> input = onlyInput(node);
    KvCoder kv = (KvCoder) input.getCoder();
    Combine.CombineFn fn = (Combine.CombineFn) perKey.getFn();
    Coder accumulatorCoder;
    try {
      accumulatorCoder = fn.getAccumulatorCoder(pipeline.getCoderRegistry(), kv.getValueCoder());
    } catch (CannotProvideCoderException e) {
      throw new IllegalStateException("No accumulator coder for the combine " + name, e);
    }
    WindowingStrategy<?, ?> ws = input.getWindowingStrategy();
    String partialName = name + "/PartialCombine";
    var partialMetrics = ctx.metricsFor(name);
    OperatorNode partial =
        ctx.addFused(
            partialName,
            () ->
                new PartialCombineOperator(
                    SerializableUtils.clone(fn),
                    kv.getKeyCoder(),
                    ws.getTimestampCombiner(),
                    partialMetrics),
            input);
    partial.declareOutputs(1);
    AccumulatorMergingCombineFn merging = new AccumulatorMergingCombineFn(fn, accumulatorCoder);
    KvCoder accumulatorKvCoder = KvCoder.of(kv.getKeyCoder(), accumulatorCoder);
    AppliedCombineFn applied =
        AppliedCombineFn.withInputCoder(merging, pipeline.getCoderRegistry(), accumulatorKvCoder);
    GroupByKeyOperator.Spec spec =
        new GroupByKeyOperator.Spec(
            name,
            ctx.options(),
            kv.getKeyCoder(),
            ws,
            (SystemReduceFn<Object, Object, ?, Object, BoundedWindow>)
                (SystemReduceFn) SystemReduceFn.combining(kv.getKeyCoder(), applied),
            ctx.stateEngineFor(name),
            ctx.metricsFor(name).withOutputs(outputNamesOf(node)));
    OperatorNode merge =
        ctx.addKeyedFrom(
            name + "/MergeAccumulators",
            () -> new GroupByKeyOperator<>(spec),
            ctx.vertexOf(partial),
            partial,
            0,
            kv.getKeyCoder());
    produce(node, merge);
  }

  /** The names of a single-output transform's PCollection, for its element-count metric. */
  private static List<String> outputNamesOf(TransformHierarchy.Node node) {
    List<String> names = new ArrayList<>();
    for (PCollection<?> out : node.getOutputs().values()) {
      names.add(out.getName());
    }
    return names;
  }
}
