package io.arcon.runner.translation;

import io.arcon.runner.operators.DoFnOperator;
import io.arcon.runtime.graph.OperatorNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.util.construction.ParDoTranslation;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;

/**
 * A ParDo becomes one {@link DoFnOperator}. A DoFn with state or timers is a stateful step: it
 * heads a new chain fed by key. One with side inputs heads a new chain (the side inputs arrive by
 * broadcast); any other joins its input's chain.
 */
final class ParDoTranslator implements TransformTranslator {

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void translate(TransformHierarchy.Node node, TranslationContext ctx) {
    if (!(node.getTransform() instanceof ParDo.MultiOutput<?, ?> pardo)) {
      throw TransformTranslator.unsupported(node, node.getTransform().getClass().getName());
    }
    String name = node.getFullName();
    DoFn<?, ?> fn = pardo.getFn();
    DoFnSignature signature = DoFnSignatures.getSignature(fn.getClass());
    if (signature.processElement().isSplittable()) {
      throw TransformTranslator.unsupported(node, "splittable DoFn " + fn.getClass().getName());
    }
    List<TupleTag<?>> additional = new ArrayList<>(pardo.getAdditionalOutputTags().getAll());
    List<PCollectionView<?>> sideInputs = new ArrayList<>(pardo.getSideInputs().values());
    ParDoPorts ports = ParDoPorts.of(node, ctx, pardo.getMainOutputTag(), additional, sideInputs);
    PCollection<?> main = ports.mainInput();
    boolean stateful = signature.usesState() || signature.usesTimers();
    Coder<?> keyCoder = null;
    if (stateful) {
      if (!(main.getCoder() instanceof KvCoder<?, ?> kv)) {
        throw new IllegalArgumentException(
            "Stateful ParDo " + name + " needs KV input with a KvCoder, got " + main.getCoder());
      }
      keyCoder = kv.getKeyCoder();
    }
    // Exact TSS export needs input in event-time order; @RequiresTimeSortedInput asks for it too.
    boolean exact =
        stateful
            && (signature.processElement().requiresTimeSortedInput()
                || (ctx.tss() != null && ctx.tss().settings().exports(name)));
    // Only a stateful DoFn opens state; a stateless one carries the (unused) default.
    String engine =
        stateful
            ? ctx.stateEngineFor(name, StatefulStep.Kind.STATEFUL_PARDO)
            : ctx.options().getStateBackend();
    DoFnOperator.Spec spec =
        new DoFnOperator.Spec(
            name,
            fn,
            ctx.options(),
            main.getCoder(),
            ports.outputCoders(),
            pardo.getMainOutputTag(),
            additional,
            ports.outputIndexes(),
            main.getWindowingStrategy(),
            sideInputs,
            pardo.getSideInputs(),
            ParDoTranslation.getSchemaInformation(ctx.appliedTransform(node)),
            keyCoder,
            stateful,
            exact,
            engine,
            ctx.metricsFor(name).withOutputs(ports.outputNames()),
            stateful && ctx.tss() != null
                ? ctx.tss()
                    .exportOf(
                        name,
                        fn,
                        keyCoder,
                        engine,
                        exact,
                        ctx.parallelism(),
                        main.getWindowingStrategy().getWindowFn().windowCoder())
                : null);
    OperatorNode op;
    if (stateful) {
      op = ctx.addKeyed(name, () -> new DoFnOperator<>(spec), main);
    } else if (!sideInputs.isEmpty()) {
      op = ctx.addUnfused(name, () -> new DoFnOperator<>(spec), main);
    } else {
      op = ctx.addFused(name, () -> new DoFnOperator<>(spec), main);
    }
    ports.wire(op, ctx);
  }
}
