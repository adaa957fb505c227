package io.arcon.benchmarks.tss;

import io.arcon.benchmarks.pipeline.CountAndSumSink;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.ParDo;

/**
 * The measured pipeline: {@link CounterEvents} {@code -> CountPerKey} (the stateful counter whose
 * state TSS exports) {@code -> Sink}. The sink counts the final counts it receives and adds them up
 * in Beam counters, so a run is verified without writing anything: one result per key, and the
 * counts add up to the elements read.
 */
public final class CounterPipeline {

  /** The stateful transform's name; {@code --tssExport=CountPerKey} selects it. */
  public static final String COUNTER = "CountPerKey";

  /** Namespace of the sink's counters. */
  public static final String NAMESPACE = CounterPipeline.class.getName();

  /** Counter of final {@code (key, count)} results: must equal the number of distinct keys. */
  public static final String KEYS = "keys";

  /** Counter of the sum of the final counts: must equal the number of elements. */
  public static final String COUNTED = "countedElements";

  private CounterPipeline() {}

  /** Adds the pipeline reading {@code source} to {@code pipeline}. */
  public static void build(Pipeline pipeline, CounterEvents source) {
    pipeline
        .apply("Events", Read.from(source))
        .apply(COUNTER, ParDo.of(new CountPerKey()))
        .apply("Sink", ParDo.of(new CountAndSumSink(NAMESPACE, KEYS, COUNTED)));
  }

  /** The number of distinct keys of a stream of {@code elements} elements over {@code keys}. */
  public static long distinctKeys(long elements, int keys) {
    // Element i has key (31 i + 7) mod keys: a bijection on the first `keys` elements when 31 does
    // not divide keys, else a cycle of keys / 31 distinct keys.
    long cycle = keys % 31 == 0 ? keys / 31 : keys;
    return Math.min(cycle, elements);
  }
}
