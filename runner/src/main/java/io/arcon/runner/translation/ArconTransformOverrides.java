package io.arcon.runner.translation;

import java.util.List;
import org.apache.beam.runners.core.SplittableParDoViaKeyedWorkItems;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.PTransformOverride;
import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.util.construction.PTransformMatchers;
import org.apache.beam.sdk.util.construction.PTransformTranslation;
import org.apache.beam.sdk.util.construction.SplittableParDo;

/** The PTransform replacements ArconRunner applies before translation. */
public final class ArconTransformOverrides {
  private ArconTransformOverrides() {}

  /** Replaces read-based splittable DoFns by primitive reads, then applies {@link #overrides}. */
  public static void applyTo(Pipeline pipeline) {
    SplittableParDo.convertReadBasedSplittableDoFnsToPrimitiveReads(pipeline);
    pipeline.replaceAll(overrides());
  }

  private static List<PTransformOverride> overrides() {
    return List.of(
        PTransformOverride.of(
            PTransformMatchers.splittableParDo(), new SplittableParDo.OverrideFactory<>()),
        PTransformOverride.of(
            PTransformMatchers.urnEqualTo(PTransformTranslation.SPLITTABLE_PROCESS_KEYED_URN),
            new SplittableParDoViaKeyedWorkItems.OverrideFactory<>()),
        PTransformOverride.of(
            PTransformMatchers.classEqualTo(View.CreatePCollectionView.class),
            new CreateArconView.Factory<>()),
        PTransformOverride.of(
            PTransformMatchers.classEqualTo(GroupIntoBatches.WithShardedKey.class),
            new GroupIntoBatchesOneShardPerKey.Factory<>()));
  }
}
