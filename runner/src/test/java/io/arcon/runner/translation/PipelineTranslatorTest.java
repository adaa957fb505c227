package io.arcon.runner.translation;

import static io.arcon.runner.translation.TranslationTestPipelines.everyStatefulKind;
import static io.arcon.runner.translation.TranslationTestPipelines.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.translation.StatefulStep.Kind;
import io.arcon.runtime.graph.Vertex;
import java.util.List;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.CountingSource;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.WithKeys;
import org.junit.jupiter.api.Test;

class PipelineTranslatorTest {

  private static Translation translate(Pipeline p, ArconPipelineOptions options) {
    return PipelineTranslator.translate(p, options, new MetricsContainerStepMap());
  }

  @Test
  void recordsEachStatefulStepOnceWithItsEngineAndKindInTopologicalOrder() {
    ArconPipelineOptions options =
        options("--stateBackend=rocksdb", "--stateBackends=Group=lmdb,CountUp=heap");
    Translation translation = translate(everyStatefulKind(options), options);
    // The names are the ones the state directories, metrics and --stateBackends rules know.
    assertEquals(
        List.of(
            new StatefulStep("Remind/ParMultiDo(Remind)", "rocksdb", Kind.STATEFUL_PARDO),
            new StatefulStep("Group", "lmdb", Kind.GROUP_BY_KEY),
            new StatefulStep("CountPerKey", "rocksdb", Kind.LIFTED_COMBINE),
            new StatefulStep("SumPerSession", "rocksdb", Kind.COMBINING_GROUP_BY_KEY),
            new StatefulStep(
                "CountUp/ParMultiDo(CountUpTo)/ProcessKeyedElements/"
                    + "SplittableParDoViaKeyedWorkItems.ProcessElements",
                "heap",
                Kind.SPLITTABLE_PROCESS)),
        translation.statefulSteps());
    assertFalse(translation.usesSynchronizedTime());
    assertEquals(null, translation.manualClock(), "no TestStream, no manual clock");
  }

  @Test
  void aRuleMatchingOnlyStatelessStepsIsRefusedListingTheStatefulOnes() {
    ArconPipelineOptions options = options("--stateBackends=Format=lmdb");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> translate(everyStatefulKind(options), options));
    assertEquals(
        "--stateBackends pattern 'Format' (in 'Format=lmdb') matches no stateful transform."
            + " Patterns are globs matched against a transform's full name or an enclosing"
            + " composite's name; the stateful transforms are: Remind/ParMultiDo(Remind),"
            + " Group, CountPerKey, SumPerSession, CountUp/ParMultiDo(CountUpTo)/"
            + "ProcessKeyedElements/SplittableParDoViaKeyedWorkItems.ProcessElements",
        e.getMessage());
  }

  @Test
  void anUnknownDefaultEngineIsRefusedBeforeTranslating() {
    ArconPipelineOptions options = options("--stateBackend=redis");
    Pipeline p = everyStatefulKind(options);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> translate(p, options));
    assertEquals(
        "Unknown state backend 'redis' in --stateBackend. Valid engines: heap, rocksdb, lmdb",
        e.getMessage());
  }

  @Test
  void aBoundedReadOfAnUnboundedSourceIsOneSourceWithoutTheStateOfBeamsExpansion() {
    ArconPipelineOptions options = options();
    Pipeline p = Pipeline.create(options);
    p.apply("Limited", Read.from(CountingSource.unbounded()).withMaxNumRecords(10))
        .apply("Key", WithKeys.of(0))
        .apply("Group", GroupByKey.create());
    Translation translation = translate(p, options);
    assertEquals(
        List.of(new StatefulStep("Group", "heap", Kind.GROUP_BY_KEY)), translation.statefulSteps());
    Vertex source = translation.graph().vertices().get(0);
    assertEquals("Limited", source.name());
    assertEquals(2, translation.graph().vertices().size(), "the read's chain, then the group's");
    assertTrue(source.operators().stream().noneMatch(op -> op.name().contains("Reshuffle")));
  }
}
