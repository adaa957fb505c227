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

/** {@code --tssExport} at translation: every glob must select a stateful ParDo. */
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
