package io.arcon.runner.translation;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.options.TransformGlob;
import io.arcon.runner.progress.ReadProgress;
import io.arcon.runner.state.StateBackendSelection;
import io.arcon.runner.tss.TssLink;
import io.arcon.runner.tss.TssSettings;
import java.util.List;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.TransformHierarchy;

/**
 * Walks a (classic, Java) pipeline once in topological order and builds the Arcon job graph: each
 * transform is handed to its translator in {@link TransformTranslators}, which adds its operators,
 * fused into chains by {@link TranslationContext}'s placement rules, and records the stateful steps
 * it creates.
 */
public final class PipelineTranslator extends Pipeline.PipelineVisitor.Defaults {
  private final TransformTranslators translators;
  private final TranslationContext ctx;

  private PipelineTranslator(TransformTranslators translators, TranslationContext ctx) {
    this.translators = translators;
    this.ctx = ctx;
  }

  /**
   * Applies Arcon's overrides to {@code pipeline} and translates it.
   *
   * @throws IllegalArgumentException for bad {@code --stateBackend}/{@code --stateBackends} values
   *     (see {@link StateBackendSelection})
   * @throws UnsupportedOperationException for a transform ArconRunner cannot run
   */
  public static Translation translate(
      Pipeline pipeline, ArconPipelineOptions options, MetricsContainerStepMap metrics) {
    return translate(pipeline, options, metrics, null, null);
  }

  /**
   * Translates a pipeline whose user states are exported to TSS through {@code tss} (null: TSS off)
   * and whose reads report to {@code reads} (null: nobody observes them).
   *
   * @throws IllegalArgumentException also for a {@code --tssExport} glob that matches no stateful
   *     ParDo, whether TSS is on or not
   */
  public static Translation translate(
      Pipeline pipeline,
      ArconPipelineOptions options,
      MetricsContainerStepMap metrics,
      TssLink tss,
      ReadProgress reads) {
    StateBackendSelection stateBackends = StateBackendSelection.of(options);
    ArconTransformOverrides.applyTo(pipeline);
    TranslationContext ctx =
        new TranslationContext(pipeline, options, metrics, stateBackends, tss, reads);
    pipeline.traverseTopologically(new PipelineTranslator(TransformTranslators.arcon(), ctx));
    List<StatefulStep> statefulSteps = ctx.statefulSteps();
    stateBackends.checkRulesAndLog(statefulSteps.stream().map(StatefulStep::fullName).toList());
    // Checked whether TSS is on or not: a typo must not pass (with TSS off the runner then refuses
    // --tssExport altogether, as it has no effect there).
    List<String> statefulParDos =
        statefulSteps.stream()
            .filter(s -> s.kind() == StatefulStep.Kind.STATEFUL_PARDO)
            .map(StatefulStep::fullName)
            .toList();
    List<TransformGlob> exports =
        tss != null ? tss.settings().exports() : TssSettings.exportGlobs(options.getTssExport());
    for (TransformGlob glob : exports) {
      if (statefulParDos.stream().noneMatch(glob::matches)) {
        throw new IllegalArgumentException(
            "--tssExport pattern '"
                + glob.pattern()
                + "' matches no stateful ParDo. Patterns are globs matched against a"
                + " transform's full name or an enclosing composite's name; the stateful ParDos"
                + " are: "
                + (statefulParDos.isEmpty() ? "(none)" : String.join(", ", statefulParDos)));
      }
    }
    return ctx.usesManualClock()
        ? new Translation(
            ctx.graph(),
            ctx.manualClock(),
            ctx.activity(),
            statefulSteps,
            ctx.usesSynchronizedTime())
        : new Translation(ctx.graph(), null, null, statefulSteps, ctx.usesSynchronizedTime());
  }

  @Override
  public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
    TransformTranslator translator = translators.forComposite(node);
    if (translator == null) {
      return CompositeBehavior.ENTER_TRANSFORM;
    }
    translator.translate(node, ctx);
    return CompositeBehavior.DO_NOT_ENTER_TRANSFORM;
  }

  @Override
  public void visitPrimitiveTransform(TransformHierarchy.Node node) {
    translators.forPrimitive(node).translate(node, ctx);
  }
}
