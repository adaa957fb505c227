package io.arcon.runner.translation;

import java.util.Map;
import org.apache.beam.sdk.io.BoundedReadFromUnboundedSource;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.util.construction.PTransformTranslation;
import org.apache.beam.sdk.util.construction.SplittableParDo;

/**
 * The translator of every transform ArconRunner runs, keyed by the transform's URN: the primitives,
 * and the composites it runs whole rather than translating their parts.
 */
final class TransformTranslators {

  /** The key of Arcon's own view-materializing primitive, which has no Beam URN. */
  static final String MATERIALIZE_VIEW_KEY = "arcon:translation:materialize_view:v1";

  /** The key of Beam's bounded read of an unbounded source, a composite without a URN. */
  static final String BOUNDED_READ_FROM_UNBOUNDED_KEY =
      "arcon:translation:bounded_read_from_unbounded_source:v1";

  /** Keys for the transforms Arcon translates that have no URN, by their exact class. */
  private static final Map<Class<?>, String> KEYS_WITHOUT_URN =
      Map.of(
          CreateArconView.MaterializeView.class, MATERIALIZE_VIEW_KEY,
          BoundedReadFromUnboundedSource.class, BOUNDED_READ_FROM_UNBOUNDED_KEY);

  private final Map<String, TransformTranslator> primitives;
  private final Map<String, TransformTranslator> composites;

  private TransformTranslators(
      Map<String, TransformTranslator> primitives, Map<String, TransformTranslator> composites) {
    this.primitives = primitives;
    this.composites = composites;
  }

  /** ArconRunner's translators. */
  static TransformTranslators arcon() {
    return new TransformTranslators(
        Map.of(
            PTransformTranslation.IMPULSE_TRANSFORM_URN,
            new ImpulseTranslator(),
            PTransformTranslation.READ_TRANSFORM_URN,
            new ReadTranslator(),
            PTransformTranslation.PAR_DO_TRANSFORM_URN,
            new ParDoTranslator(),
            PTransformTranslation.GROUP_BY_KEY_TRANSFORM_URN,
            new GroupByKeyTranslator(),
            PTransformTranslation.FLATTEN_TRANSFORM_URN,
            new FlattenTranslator(),
            PTransformTranslation.ASSIGN_WINDOWS_TRANSFORM_URN,
            new AssignWindowsTranslator(),
            PTransformTranslation.TEST_STREAM_TRANSFORM_URN,
            new TestStreamTranslator(),
            MATERIALIZE_VIEW_KEY,
            new MaterializeViewTranslator(),
            SplittableParDo.SPLITTABLE_GBKIKWI_URN,
            new KeyedWorkItemsTranslator(),
            SplittableParDo.SPLITTABLE_PROCESS_URN,
            new SplittableProcessTranslator()),
        Map.of(
            PTransformTranslation.COMBINE_PER_KEY_TRANSFORM_URN,
            new CombinePerKeyTranslator(),
            BOUNDED_READ_FROM_UNBOUNDED_KEY,
            new BoundedReadFromUnboundedTranslator()));
  }

  /**
   * The key a transform's translator is registered under: its URN, or for a transform without one
   * that Arcon translates, a key of its class; null when it has neither.
   */
  static String keyOf(PTransform<?, ?> transform) {
    String key = KEYS_WITHOUT_URN.get(transform.getClass());
    return key != null ? key : PTransformTranslation.urnForTransformOrNull(transform);
  }

  /**
   * The translator that runs the composite {@code node} whole, or null when its parts are to be
   * translated instead.
   */
  TransformTranslator forComposite(TransformHierarchy.Node node) {
    if (node.getTransform() == null) {
      return null; // the pipeline's root
    }
    String key = keyOf(node.getTransform());
    TransformTranslator translator = key == null ? null : composites.get(key);
    return translator != null && translator.canTranslate(node) ? translator : null;
  }

  /**
   * The translator of the primitive {@code node}.
   *
   * @throws UnsupportedOperationException when ArconRunner cannot run it
   */
  TransformTranslator forPrimitive(TransformHierarchy.Node node) {
    PTransform<?, ?> transform = node.getTransform();
    String key = keyOf(transform);
    if (key == null) {
      throw TransformTranslator.unsupported(node, transform.getClass().getName());
    }
    TransformTranslator translator = primitives.get(key);
    if (translator == null) {
      throw TransformTranslator.unsupported(node, key);
    }
    return translator;
  }
}
