package io.arcon.benchmarks.pipeline;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;

/**
 * The keyed count with its state touched by every element: {@link KeyedCountPipeline}'s input into
 * a stateful DoFn that reads and writes a {@code ValueState} per element (no combiner lifting, no
 * pre-aggregation) and emits each key's count from an end-of-window timer — line for line the Beam
 * form of {@link KeyedCountFlinkJob.CountPerKey}, Flink's {@code KeyedProcessFunction}.
 */
final class PerElementStatePipeline {
  static final String NAMESPACE = PerElementStatePipeline.class.getName();
  static final String KEYS = "keys";
  static final String COUNTED = "countedElements";

  private PerElementStatePipeline() {}

  static void build(Pipeline pipeline, long elements, long keys) {
    KeyedCountPipeline.keyedInput(pipeline, elements, keys)
        .apply("CountPerKey", ParDo.of(new CountPerKey()))
        .apply("Discard", ParDo.of(new CountAndSumSink(NAMESPACE, KEYS, COUNTED)));
  }

  /** Counts per key in ValueState; emits {@code (key, count)} once, at the end of the window. */
  static final class CountPerKey extends DoFn<KV<Long, Long>, KV<Long, Long>> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("end")
    private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<Long, Long> element,
        @StateId("count") ValueState<Long> count,
        @TimerId("end") Timer end,
        BoundedWindow window) {
      Long current = count.read();
      if (current == null) {
        end.set(window.maxTimestamp());
        current = 0L;
      }
      count.write(current + 1);
    }

    @OnTimer("end")
    public void onEnd(
        @Key Long key,
        @StateId("count") ValueState<Long> count,
        OutputReceiver<KV<Long, Long>> out) {
      out.output(KV.of(key, count.read()));
    }
  }
}
