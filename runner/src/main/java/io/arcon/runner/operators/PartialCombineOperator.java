package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;

/**
 * The pre-shuffle half of a lifted {@code Combine.perKey}: folds inputs into one accumulator per
 * (key, window) so that only accumulators cross the shuffle. Accumulators are flushed when the
 * table grows large, before the watermark advances (their timestamps must not be overtaken), and at
 * the end of input. Only used for non-merging windows with the default trigger, where early
 * combining cannot change what the trigger sees.
 */
public final class PartialCombineOperator<K, InT, AccT> implements Operator {
  private static final int MAX_ENTRIES = 100_000;

  private final Combine.CombineFn<InT, AccT, ?> combineFn;
  private final Coder<K> keyCoder;
  private final TimestampCombiner timestampCombiner;
  private final OperatorMetrics metrics;
  private Output output;

  private record Slot(ByteBuffer key, BoundedWindow window) {}

  private static final class Partial<K, AccT> {
    final K key;
    AccT accumulator;
    Instant timestamp;

    Partial(K key, AccT accumulator, Instant timestamp) {
      this.key = key;
      this.accumulator = accumulator;
      this.timestamp = timestamp;
    }
  }

  private final Map<Slot, Partial<K, AccT>> table = new HashMap<>();

  public PartialCombineOperator(
      Combine.CombineFn<InT, AccT, ?> combineFn,
      Coder<K> keyCoder,
      TimestampCombiner timestampCombiner,
      OperatorMetrics metrics) {
    this.combineFn = combineFn;
    this.keyCoder = keyCoder;
    this.timestampCombiner = timestampCombiner;
    this.metrics = metrics;
  }

  @Override
  public void open(OperatorContext context) {
    this.output = context.output();
  }

  @Override
  @SuppressWarnings("unchecked")
  public void processElement(int port, Object element) throws Exception {
    WindowedValue<KV<K, InT>> value = (WindowedValue<KV<K, InT>>) element;
    K key = value.getValue().getKey();
    ByteBuffer keyBytes = ByteBuffer.wrap(CoderUtils.encodeToByteArray(keyCoder, key));
    try (Closeable scope = MetricsEnvironment.scopedMetricsContainer(metrics.container())) {
      for (BoundedWindow window : value.getWindows()) {
        Slot slot = new Slot(keyBytes, window);
        Partial<K, AccT> partial = table.get(slot);
        if (partial == null) {
          AccT acc = combineFn.addInput(combineFn.createAccumulator(), value.getValue().getValue());
          table.put(slot, new Partial<>(key, acc, value.getTimestamp()));
        } else {
          partial.accumulator = combineFn.addInput(partial.accumulator, value.getValue().getValue());
          partial.timestamp = timestampCombiner.combine(partial.timestamp, value.getTimestamp());
        }
      }
    }
    if (table.size() >= MAX_ENTRIES) {
      flush();
    }
  }

  private void flush() throws Exception {
    if (table.isEmpty()) {
      return;
    }
    try (Closeable scope = MetricsEnvironment.scopedMetricsContainer(metrics.container())) {
      for (Map.Entry<Slot, Partial<K, AccT>> e : table.entrySet()) {
        Partial<K, AccT> p = e.getValue();
        output.emit(
            0,
            WindowedValues.of(
                KV.of(p.key, combineFn.compact(p.accumulator)),
                p.timestamp,
                e.getKey().window(),
                PaneInfo.NO_FIRING));
      }
    }
    table.clear();
  }

  @Override
  public void advanceWatermark(long watermark) throws Exception {
    flush();
  }

  @Override
  public long outputWatermarkHold() {
    long hold = Long.MAX_VALUE;
    for (Partial<K, AccT> p : table.values()) {
      hold = Math.min(hold, p.timestamp.getMillis());
    }
    return hold;
  }

  @Override
  public void endOfInput() throws Exception {
    flush();
  }
}
