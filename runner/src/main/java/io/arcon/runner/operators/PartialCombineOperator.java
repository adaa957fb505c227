package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.state.WindowHash;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
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
 * table grows large, before the watermark advances (their timestamps must not be overtaken), before
 * an epoch's snapshot (they are not in it) and at the end of input; under a trigger other than the
 * default one also at the end of every bundle and before processing time advances. Only used for
 * non-merging windows and triggers that fire the same on partials as on elements (the translator's
 * {@code LiftableTriggers}: no element counts).
 */
public final class PartialCombineOperator<K, InT, AccT> implements Operator {
  private static final int MAX_ENTRIES = 100_000;

  private final Combine.CombineFn<InT, AccT, ?> combineFn;
  private final Coder<K> keyCoder;
  private final TimestampCombiner timestampCombiner;
  private final OperatorMetrics metrics;
  private Output output;

  /** A (structural key, window) pair; the hash is computed once. */
  private static final class Slot {
    private final Object key;
    private final BoundedWindow window;
    private final int hash;

    Slot(Object key, BoundedWindow window) {
      this.key = key;
      this.window = window;
      this.hash = 31 * key.hashCode() + WindowHash.of(window);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Slot s
          && hash == s.hash
          && key.equals(s.key)
          && WindowHash.same(window, s.window);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

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
  private final boolean keyIsStructural;

  /**
   * Whether partials go downstream at the end of every bundle and before processing time advances:
   * under a trigger other than the default one a pane may fire before the watermark moves (early
   * firings by processing time), and it must see what its input has processed so far.
   */
  private final boolean flushEveryBundle;

  /** The key of the element before, by identity, and its encoding (when keys are encoded). */
  private K lastKey;

  private Object lastStructuralKey;

  /** No buffered partial is earlier than this (a conservative hold, reset on flush). */
  private long minTimestamp = Long.MAX_VALUE;

  public PartialCombineOperator(
      Combine.CombineFn<InT, AccT, ?> combineFn,
      Coder<K> keyCoder,
      TimestampCombiner timestampCombiner,
      boolean flushEveryBundle,
      OperatorMetrics metrics) {
    this.combineFn = combineFn;
    this.keyCoder = keyCoder;
    this.timestampCombiner = timestampCombiner;
    this.metrics = metrics.forInstance();
    this.keyIsStructural = keyCoder.consistentWithEquals();
    this.flushEveryBundle = flushEveryBundle;
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
    // Keys group by their encoding; a coder consistent with equals lets the key itself stand in.
    Object structuralKey;
    if (keyIsStructural) {
      structuralKey = key;
    } else if (key == lastKey && lastStructuralKey != null) {
      // The same key object as the element before (a global combine's one null key, every
      // element): its encoding is known, and elements are immutable.
      structuralKey = lastStructuralKey;
    } else {
      structuralKey = ByteBuffer.wrap(CoderUtils.encodeToByteArray(keyCoder, key));
      lastKey = key;
      lastStructuralKey = structuralKey;
    }
    minTimestamp = Math.min(minTimestamp, value.getTimestamp().getMillis());
    metrics.scoped(() -> addInput(key, structuralKey, value));
    if (table.size() >= MAX_ENTRIES) {
      flush();
    }
  }

  /** Folds the input into the accumulator of each of its windows (user code: the CombineFn). */
  private void addInput(K key, Object structuralKey, WindowedValue<KV<K, InT>> value) {
    for (BoundedWindow window : value.getWindows()) {
      Slot slot = new Slot(structuralKey, window);
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

  private void flush() throws Exception {
    if (table.isEmpty()) {
      return;
    }
    metrics.scoped(this::emitPartials);
    table.clear();
    minTimestamp = Long.MAX_VALUE;
  }

  /** Emits every buffered accumulator, compacted (user code: the CombineFn). */
  private void emitPartials() {
    for (Map.Entry<Slot, Partial<K, AccT>> e : table.entrySet()) {
      Partial<K, AccT> p = e.getValue();
      output.emit(
          0,
          WindowedValues.of(
              KV.of(p.key, combineFn.compact(p.accumulator)),
              p.timestamp,
              e.getKey().window,
              PaneInfo.NO_FIRING));
    }
  }

  @Override
  public void advanceWatermark(long watermark) throws Exception {
    flush();
  }

  @Override
  public void finishBundle() throws Exception {
    if (flushEveryBundle) {
      flush();
    }
  }

  @Override
  public void advanceProcessingTime(long nowMillis) throws Exception {
    if (flushEveryBundle) {
      flush();
    }
  }

  @Override
  public long outputWatermarkHold() {
    return minTimestamp;
  }

  @Override
  public void endOfInput() throws Exception {
    flush();
  }

  /**
   * The partials are not in any snapshot: they go downstream before each epoch's marker, or a
   * restore from that epoch would resume the input after the elements folded into them.
   */
  @Override
  public boolean holdsOutput() {
    return !table.isEmpty();
  }

  @Override
  public void emitHeldOutput() throws Exception {
    flush();
  }
}
