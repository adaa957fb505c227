package io.arcon.runner.translation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import io.arcon.runner.tss.TssLink;
import io.arcon.runner.tss.TssSettings;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

/**
 * {@code --tssExport} at translation: every glob must select a stateful ParDo, whether TSS is on or
 * off; with TSS off, {@code run()} refuses it altogether.
 */
class TssExportTranslationTest {

  static final class Last extends DoFn<KV<String, Long>, Void> {
    @StateId("last")
    private final StateSpec<ValueState<Long>> last = StateSpecs.value();

    @ProcessElement
    public void process(@Element KV<String, Long> e, @StateId("last") ValueState<Long> last) {
      last.write(e.getValue());
    }
  }

  private static Pipeline pipeline(ArconPipelineOptions options) {
    Pipeline p = Pipeline.create(options);
    p.apply(
            Create.of(KV.of("a", 1L))
                .withCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of())))
        .apply("KeepLast", ParDo.of(new Last()));
    return p;
  }

  private static ArconPipelineOptions options(String export) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setTss("on");
    options.setTssExport(export);
    return options;
  }

  @Test
  void aGlobThatMatchesNoStatefulParDoIsRefusedListingThem() {
    ArconPipelineOptions options = options("KeepFirst");
    TssLink link = new TssLink(TssSettings.of(options, true));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PipelineTranslator.translate(
                    pipeline(options), options, new MetricsContainerStepMap(), link, null));
    assertTrue(
        e.getMessage().startsWith("--tssExport pattern 'KeepFirst' matches no stateful ParDo"),
        e.getMessage());
    assertTrue(e.getMessage().contains("KeepLast/ParMultiDo(Last)"), e.getMessage());
  }

  @Test
  void withTssOffAGlobThatMatchesNoStatefulParDoIsRefusedAtRunAsWithTssOn() {
    ArconPipelineOptions options = options("Nope");
    options.setTss("off");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> pipeline(options).run());
    assertEquals(
        "--tssExport pattern 'Nope' matches no stateful ParDo. Patterns are globs matched against"
            + " a transform's full name or an enclosing composite's name; the stateful ParDos are:"
            + " KeepLast/ParMultiDo(Last)",
        e.getMessage());
  }

  @Test
  void withTssOffAMatchingGlobIsRefusedAtRunForHavingNoEffect() {
    String expected =
        "--tssExport=KeepLast has no effect with TSS off (--tss=off; TestArconRunner's default):"
            + " --tssExport makes a transform's state exported exactly to TSS (its input sorted by"
            + " event time), and with TSS off nothing is exported or sorted. Use --tss=on to export"
            + " it, or drop --tssExport.";
    ArconPipelineOptions off = options("KeepLast");
    off.setTss("off");
    assertEquals(
        expected,
        assertThrows(IllegalArgumentException.class, () -> pipeline(off).run()).getMessage());
    ArconPipelineOptions testDefault = options("KeepLast");
    testDefault.setTss(null);
    assertEquals(
        expected,
        assertThrows(IllegalArgumentException.class, () -> pipeline(testDefault).run())
            .getMessage());
  }

  @Test
  void aMatchedParDoWithoutTheAnnotationIsExportedExactly() {
    ArconPipelineOptions options = options("KeepLast");
    TssLink link = new TssLink(TssSettings.of(options, true));
    Translation t =
        PipelineTranslator.translate(
            pipeline(options), options, new MetricsContainerStepMap(), link, null);
    assertEquals(1, t.statefulSteps().size());
    assertEquals(1, link.exportedTransforms().size());
    assertTrue(link.exportedTransforms().get(0).exact(), "selected by --tssExport: exact");
  }
}
