package io.arcon.benchmarks.tss;

import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;

/**
 * The measured stateful transform: a per-key event counter in {@code @StateId("count")}, the state
 * TSS lists and exports. Its only output is each key's final count, emitted when the watermark
 * reaches the end of the global window, so a run can be verified from what the state held (the
 * counts must add up to the elements read) at the cost of one timer per key, not per element.
 */
public final class CountPerKey extends DoFn<KV<Long, Long>, KV<Long, Long>> {

  /** The exported state's id: the TSS state is {@code <app>.count}. */
  public static final String STATE = "count";

  @StateId(STATE)
  private final StateSpec<ValueState<Long>> count = StateSpecs.value(VarLongCoder.of());

  @TimerId("end")
  private final TimerSpec end = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  @ProcessElement
  public void process(
      @Element KV<Long, Long> event,
      @StateId(STATE) ValueState<Long> count,
      @TimerId("end") Timer end) {
    Long n = count.read();
    if (n == null) {
      end.set(GlobalWindow.INSTANCE.maxTimestamp());
      n = 0L;
    }
    count.write(n + event.getValue());
  }

  @OnTimer("end")
  public void emitFinalCount(
      @Key Long key, @StateId(STATE) ValueState<Long> count, OutputReceiver<KV<Long, Long>> out) {
    out.output(KV.of(key, count.read()));
  }
}
