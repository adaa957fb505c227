package io.arcon.benchmarks.epochs;

import io.arcon.benchmarks.CountCheck;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.pipeline.KeyedCountPipeline;
import io.arcon.benchmarks.tss.CounterEvents;
import io.arcon.benchmarks.tss.CounterPipeline;
import org.apache.beam.sdk.Pipeline;

/**
 * The two pipelines whose throughput is measured with and without epochs: the keyed count of the
 * runner comparison ({@link KeyedCountPipeline}: a bounded sequence into {@code Count.perKey}) and
 * the per-key {@code ValueState} counter of the TSS benchmark ({@link CounterPipeline}: an
 * unbounded source with event times and a watermark into a stateful DoFn with one timer per key).
 * Each knows how to verify a run from its sink's counters.
 */
enum MeasuredPipeline {
  KEYED_COUNT("keyed-count", "keyed count") {
    @Override
    void build(Pipeline pipeline, long elements, int keys) {
      KeyedCountPipeline.build(pipeline, elements, keys);
    }

    @Override
    void verify(String label, TimedPipelineRun run, long elements, int keys) {
      CountCheck.require(
          label,
          run.counter(KeyedCountPipeline.NAMESPACE, KeyedCountPipeline.KEYS),
          run.counter(KeyedCountPipeline.NAMESPACE, KeyedCountPipeline.COUNTED),
          Math.min(keys, elements),
          elements);
    }
  },
  COUNTER("counter", "ValueState counter") {
    @Override
    void build(Pipeline pipeline, long elements, int keys) {
      CounterPipeline.build(
          pipeline,
          CounterEvents.of(
              new CounterEvents.Shape(
                  elements,
                  keys,
                  BASE_MILLIS,
                  MAX_DISORDER_MILLIS,
                  WATERMARK_LAG_MILLIS,
                  Long.MAX_VALUE)));
    }

    @Override
    void verify(String label, TimedPipelineRun run, long elements, int keys) {
      CountCheck.require(
          label,
          run.counter(CounterPipeline.NAMESPACE, CounterPipeline.KEYS),
          run.counter(CounterPipeline.NAMESPACE, CounterPipeline.COUNTED),
          CounterPipeline.distinctKeys(elements, keys),
          elements);
    }
  };

  /** The counter stream's shape as in the TSS export benchmark (bounded disorder, lagging mark). */
  static final long BASE_MILLIS = java.time.Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

  static final int MAX_DISORDER_MILLIS = 200;
  static final int WATERMARK_LAG_MILLIS = 500;

  final String name;
  final String label;

  MeasuredPipeline(String name, String label) {
    this.name = name;
    this.label = label;
  }

  /** Adds the pipeline for {@code elements} elements over {@code keys} keys. */
  abstract void build(Pipeline pipeline, long elements, int keys);

  /** Fails unless the finished run emitted one result per key adding up to the elements. */
  abstract void verify(String label, TimedPipelineRun run, long elements, int keys);
}
