package io.arcon.runner.translation;

import static io.arcon.runner.translation.TranslationTestPipelines.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.translation.TranslationTestPipelines.CountUpTo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.io.CountingSource;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.util.construction.PTransformTranslation;
import org.apache.beam.sdk.util.construction.SplittableParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

class TransformTranslatorsTest {
  private final TransformTranslators translators = TransformTranslators.arcon();

  /** A pipeline with every transform ArconRunner translates. */
  private static Pipeline everyTransformArconRuns(ArconPipelineOptions options) {
    Pipeline p = Pipeline.create(options);
    PCollection<Integer> created = p.apply("Create", Create.of(1, 2, 3));
    PCollection<Integer> impulse =
        p.apply("Impulse", Impulse.create())
            .apply("One", MapElements.into(TypeDescriptors.integers()).via((byte[] bytes) -> 1));
    PCollection<Integer> stream =
        p.apply(
            "Stream",
            TestStream.create(VarIntCoder.of()).addElements(4).advanceWatermarkToInfinity());
    PCollection<Integer> all =
        PCollectionList.of(created)
            .and(impulse)
            .and(stream)
            .apply("Flatten", Flatten.pCollections());
    created.apply("Side", View.asSingleton());
    all.apply("Windowed", Window.into(FixedWindows.of(Duration.standardMinutes(1))))
        .apply("Key", WithKeys.of("k"))
        .apply("Group", GroupByKey.create());
    all.apply("Sessions", Window.into(Sessions.withGapDuration(Duration.standardMinutes(1))))
        .apply("SessionKey", WithKeys.of("k"))
        .apply("CountPerSession", Count.perKey());
    created.apply("GlobalKey", WithKeys.of("k")).apply("CountPerKey", Count.perKey());
    created.apply("CountUp", ParDo.of(new CountUpTo()));
    p.apply("Limited", Read.from(CountingSource.unbounded()).withMaxNumRecords(10));
    return p;
  }

  /** Resolves every node the way {@link PipelineTranslator} does, recording who translates what. */
  private static final class Resolutions extends Pipeline.PipelineVisitor.Defaults {
    private final TransformTranslators translators;
    final Map<String, String> primitives = new TreeMap<>();
    final Map<String, String> composites = new TreeMap<>();
    final List<String> expanded = new ArrayList<>();

    Resolutions(TransformTranslators translators) {
      this.translators = translators;
    }

    @Override
    public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
      TransformTranslator translator = translators.forComposite(node);
      if (translator == null) {
        if (node.getTransform() != null) {
          expanded.add(node.getFullName());
        }
        return CompositeBehavior.ENTER_TRANSFORM;
      }
      composites.put(
          TransformTranslators.keyOf(node.getTransform()), translator.getClass().getSimpleName());
      return CompositeBehavior.DO_NOT_ENTER_TRANSFORM;
    }

    @Override
    public void visitPrimitiveTransform(TransformHierarchy.Node node) {
      TransformTranslator translator = translators.forPrimitive(node);
      String key = TransformTranslators.keyOf(node.getTransform());
      String previous = primitives.put(key, translator.getClass().getSimpleName());
      assertEquals(
          previous == null ? translator.getClass().getSimpleName() : previous,
          translator.getClass().getSimpleName(),
          "one translator per key");
    }
  }

  @Test
  void everyPrimitiveAndWholeCompositeArconRunsResolvesToItsTranslator() {
    ArconPipelineOptions options = options();
    Pipeline p = everyTransformArconRuns(options);
    ArconTransformOverrides.applyTo(p);
    Resolutions resolutions = new Resolutions(translators);
    p.traverseTopologically(resolutions);

    assertEquals(
        new TreeMap<>(
            Map.of(
                PTransformTranslation.IMPULSE_TRANSFORM_URN, "ImpulseTranslator",
                PTransformTranslation.READ_TRANSFORM_URN, "ReadTranslator",
                PTransformTranslation.PAR_DO_TRANSFORM_URN, "ParDoTranslator",
                PTransformTranslation.GROUP_BY_KEY_TRANSFORM_URN, "GroupByKeyTranslator",
                PTransformTranslation.FLATTEN_TRANSFORM_URN, "FlattenTranslator",
                PTransformTranslation.ASSIGN_WINDOWS_TRANSFORM_URN, "AssignWindowsTranslator",
                PTransformTranslation.TEST_STREAM_TRANSFORM_URN, "TestStreamTranslator",
                TransformTranslators.MATERIALIZE_VIEW_KEY, "MaterializeViewTranslator",
                SplittableParDo.SPLITTABLE_GBKIKWI_URN, "KeyedWorkItemsTranslator",
                SplittableParDo.SPLITTABLE_PROCESS_URN, "SplittableProcessTranslator")),
        resolutions.primitives);
    assertEquals(
        new TreeMap<>(
            Map.of(
                PTransformTranslation.COMBINE_PER_KEY_TRANSFORM_URN, "CombinePerKeyTranslator",
                TransformTranslators.BOUNDED_READ_FROM_UNBOUNDED_KEY,
                    "BoundedReadFromUnboundedTranslator")),
        resolutions.composites);
    // A Combine.PerKey over merging windows cannot be lifted, but runs whole as a combining
    // GroupByKey: its parts are not translated.
    assertFalse(
        resolutions.expanded.contains("CountPerSession"), String.valueOf(resolutions.expanded));
  }

  @Test
  void aPrimitiveWithoutUrnIsRefusedNamingItsClass() {
    assertEquals(
        "ArconRunner cannot run transform 'Mystery' (" + PrimitiveWithoutUrn.class.getName() + ")",
        refusal("Mystery", new PrimitiveWithoutUrn()));
  }

  @Test
  void aPrimitiveWithAnUnsupportedUrnIsRefusedNamingTheUrn() {
    assertEquals(
        "ArconRunner cannot run transform 'Elsewhere' (" + PrimitiveWithUrn.URN + ")",
        refusal("Elsewhere", new PrimitiveWithUrn()));
  }

  /** The message translation refuses a pipeline made of {@code primitive} with. */
  private static String refusal(String name, PTransform<PBegin, PCollection<Integer>> primitive) {
    ArconPipelineOptions options = options();
    Pipeline p = Pipeline.create(options);
    p.apply(name, primitive);
    return assertThrows(
            UnsupportedOperationException.class,
            () -> PipelineTranslator.translate(p, options, new MetricsContainerStepMap()))
        .getMessage();
  }

  /** The output of a primitive source of integers. */
  private static PCollection<Integer> integersFrom(PBegin input) {
    return PCollection.createPrimitiveOutputInternal(
        input.getPipeline(),
        WindowingStrategy.globalDefault(),
        PCollection.IsBounded.BOUNDED,
        VarIntCoder.of());
  }

  /** A primitive no runner knows: no URN, no translator. */
  private static final class PrimitiveWithoutUrn extends PTransform<PBegin, PCollection<Integer>> {
    @Override
    public PCollection<Integer> expand(PBegin input) {
      return integersFrom(input);
    }
  }

  /** A primitive with a URN ArconRunner has no translator for. */
  private static final class PrimitiveWithUrn
      extends PTransformTranslation.RawPTransform<PBegin, PCollection<Integer>> {
    static final String URN = "beam:transform:arcon_test_elsewhere:v1";

    @Override
    public String getUrn() {
      return URN;
    }

    @Override
    public RunnerApi.FunctionSpec getSpec() {
      return RunnerApi.FunctionSpec.newBuilder().setUrn(URN).build();
    }

    @Override
    public PCollection<Integer> expand(PBegin input) {
      return integersFrom(input);
    }
  }
}
