package io.arcon.benchmarks.pipeline;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The measured pipeline: {@code GenerateSequence(0..n) -> x * 31 + 7 -> (x % keys, x) ->
 * Count.perKey() -> discard}. The sink counts keys and the counted elements in Beam counters, so a
 * run is verified (every key once, every element counted) without writing anything.
 */
public final class KeyedCountPipeline {

  /** Namespace of the sink's counters. */
  public static final String NAMESPACE = KeyedCountPipeline.class.getName();

  /** Counter of {@code (key, count)} results that reached the sink: must equal the key count. */
  public static final String KEYS = "keys";

  /** Counter of the sum of all counts: must equal the number of elements. */
  public static final String COUNTED = "countedElements";

  private KeyedCountPipeline() {}

  /** Adds the pipeline for {@code elements} longs over {@code keys} keys to {@code pipeline}. */
  public static void build(Pipeline pipeline, long elements, int keys) {
    keyedInput(pipeline, elements, keys)
        .apply("CountPerKey", Count.perKey())
        .apply("Discard", ParDo.of(new CountAndSumSink(NAMESPACE, KEYS, COUNTED)));
  }

  /**
   * The input both keyed-count pipelines count: {@code elements} longs, scrambled ({@code x * 31 +
   * 7}) and keyed by {@code x % keys}, as the native Flink job ({@link KeyedCountFlinkJob}) does.
   */
  static PCollection<KV<Long, Long>> keyedInput(Pipeline pipeline, long elements, long keys) {
    if (elements <= 0) {
      throw new IllegalArgumentException("--elements must be positive, got " + elements);
    }
    if (keys <= 0) {
      throw new IllegalArgumentException("--keys must be positive, got " + keys);
    }
    return pipeline
        .apply("Sequence", GenerateSequence.from(0).to(elements))
        .apply("Scramble", MapElements.into(TypeDescriptors.longs()).via((Long x) -> x * 31 + 7))
        .apply(
            "KeyByModulo",
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                .via((Long x) -> KV.of(x % keys, x)));
  }
}
