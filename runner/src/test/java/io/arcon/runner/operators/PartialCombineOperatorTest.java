package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.metrics.OuterMetricsContainer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PartialCombineOperatorTest {

  @RegisterExtension final OuterMetricsContainer threadContainer = new OuterMetricsContainer();
  private final TestOperatorContext context = new TestOperatorContext(null);
  private final List<Object> emitted = context.emitted;

  @Test
  void combinesPerKeyAndWindowAndFlushesOnWatermark() throws Exception {
    PartialCombineOperator<String, Long, long[]> op = open(StringUtf8Coder.of());
    IntervalWindow w1 = new IntervalWindow(new Instant(0), new Instant(10));
    IntervalWindow w2 = new IntervalWindow(new Instant(10), new Instant(20));
    op.processElement(0, value("a", 1L, 3, w1));
    op.processElement(0, value("a", 2L, 5, w1));
    op.processElement(0, value("a", 4L, 12, w2));
    op.processElement(0, value("b", 8L, 1, w1));
    op.processElement(0, value("a", 16L, 7, GlobalWindow.INSTANCE));
    op.processElement(0, value("a", 32L, 9, GlobalWindow.INSTANCE));
    assertTrue(emitted.isEmpty(), "nothing leaves before a flush");
    assertEquals(1, op.outputWatermarkHold(), "the hold is the earliest buffered timestamp");

    op.advanceWatermark(0);

    Map<String, Long> sums = new HashMap<>();
    Map<String, Instant> timestamps = new HashMap<>();
    for (Object element : emitted) {
      WindowedValue<?> value = (WindowedValue<?>) element;
      @SuppressWarnings("unchecked")
      KV<String, long[]> kv = (KV<String, long[]>) value.getValue();
      BoundedWindow window = value.getWindows().iterator().next();
      String slot = kv.getKey() + "@" + window;
      sums.put(slot, kv.getValue()[0]);
      timestamps.put(slot, value.getTimestamp());
      assertEquals(PaneInfo.NO_FIRING, value.getPaneInfo());
    }
    assertEquals(
        Map.of(
            "a@" + w1, 3L,
            "a@" + w2, 4L,
            "b@" + w1, 8L,
            "a@" + GlobalWindow.INSTANCE, 48L),
        sums);
    // EARLIEST: the earliest timestamp of the inputs folded into each accumulator.
    assertEquals(new Instant(3), timestamps.get("a@" + w1));
    assertEquals(new Instant(7), timestamps.get("a@" + GlobalWindow.INSTANCE));
    assertEquals(Long.MAX_VALUE, op.outputWatermarkHold(), "nothing is buffered after a flush");
  }

  @Test
  void keysWhoseCoderIsNotConsistentWithEqualsGroupByTheirEncoding() throws Exception {
    PartialCombineOperator<byte[], Long, long[]> op = open(ByteArrayCoder.of());
    op.processElement(0, value(new byte[] {1, 2}, 5L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value(new byte[] {1, 2}, 6L, 0, GlobalWindow.INSTANCE));
    op.endOfInput();
    assertEquals(1, emitted.size());
    @SuppressWarnings("unchecked")
    KV<byte[], long[]> kv = (KV<byte[], long[]>) ((WindowedValue<?>) emitted.get(0)).getValue();
    assertEquals(11L, kv.getValue()[0]);
  }

  @Test
  void theSameKeyObjectAgainAndAnEqualOneShareAPartialAndAnotherKeyDoesNot() throws Exception {
    PartialCombineOperator<byte[], Long, long[]> op = open(ByteArrayCoder.of());
    byte[] key = {7};
    op.processElement(0, value(key, 1L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value(key, 2L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value(new byte[] {8}, 4L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value(new byte[] {7}, 8L, 0, GlobalWindow.INSTANCE));
    op.endOfInput();
    Map<Byte, Long> sums = new HashMap<>();
    for (Object element : emitted) {
      @SuppressWarnings("unchecked")
      KV<byte[], long[]> kv = (KV<byte[], long[]>) ((WindowedValue<?>) element).getValue();
      sums.put(kv.getKey()[0], kv.getValue()[0]);
    }
    assertEquals(Map.of((byte) 7, 11L, (byte) 8, 4L), sums);
  }

  @Test
  void underATriggerPartialsLeaveAtEveryBundleEndAndProcessingTimeAdvance() throws Exception {
    PartialCombineOperator<String, Long, long[]> held = open(StringUtf8Coder.of(), false);
    held.processElement(0, value("a", 1L, 0, GlobalWindow.INSTANCE));
    held.finishBundle();
    held.advanceProcessingTime(1_000);
    assertTrue(emitted.isEmpty(), "under the default trigger partials wait for the watermark");
    held.advanceWatermark(0);
    assertEquals(1, emitted.size());
    emitted.clear();

    PartialCombineOperator<String, Long, long[]> op = open(StringUtf8Coder.of(), true);
    op.processElement(0, value("a", 1L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value("a", 2L, 0, GlobalWindow.INSTANCE));
    op.finishBundle();
    assertEquals(1, emitted.size(), "the bundle's partial left at its end");
    op.processElement(0, value("a", 4L, 0, GlobalWindow.INSTANCE));
    op.advanceProcessingTime(1_000);
    assertEquals(2, emitted.size(), "and before processing time moved on");
    @SuppressWarnings("unchecked")
    KV<String, long[]> second = (KV<String, long[]>) ((WindowedValue<?>) emitted.get(1)).getValue();
    assertEquals(4L, second.getValue()[0]);
    assertEquals(Long.MAX_VALUE, op.outputWatermarkHold());
  }

  /** Sums, reporting each input it adds and each accumulator it compacts. */
  static final class ReportingSum extends Combine.BinaryCombineLongFn {
    private final Counter added = Metrics.counter(ReportingSum.class, "added");
    private final Counter compacted = Metrics.counter(ReportingSum.class, "compacted");

    @Override
    public long apply(long left, long right) {
      return left + right;
    }

    @Override
    public long identity() {
      return 0;
    }

    @Override
    public long[] addInput(long[] accumulator, Long input) {
      added.inc();
      return super.addInput(accumulator, input);
    }

    @Override
    public long[] compact(long[] accumulator) {
      compacted.inc();
      return super.compact(accumulator);
    }
  }

  @Test
  void theCombineFnReportsToTheStepAndTheThreadsContainerIsGivenBack() throws Exception {
    MetricsContainerStepMap stepMap = new MetricsContainerStepMap();
    PartialCombineOperator<String, Long, long[]> op =
        new PartialCombineOperator<>(
            new ReportingSum(),
            StringUtf8Coder.of(),
            TimestampCombiner.EARLIEST,
            false,
            new OperatorMetrics(stepMap, "Sum"));
    op.open(context);
    MetricsContainerImpl outer = threadContainer.container();
    op.processElement(0, value("a", 1L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value("a", 2L, 0, GlobalWindow.INSTANCE));
    op.processElement(0, value("b", 3L, 0, GlobalWindow.INSTANCE));
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    op.endOfInput();
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    MetricsContainerImpl step = stepMap.getContainer("Sum");
    assertEquals(
        3L, step.getCounter(MetricName.named(ReportingSum.class, "added")).getCumulative());
    assertEquals(
        2L, step.getCounter(MetricName.named(ReportingSum.class, "compacted")).getCumulative());
    assertEquals(
        0L, outer.getCounter(MetricName.named(ReportingSum.class, "added")).getCumulative());
  }

  private <K> PartialCombineOperator<K, Long, long[]> open(
      org.apache.beam.sdk.coders.Coder<K> keyCoder) {
    return open(keyCoder, false);
  }

  private <K> PartialCombineOperator<K, Long, long[]> open(
      org.apache.beam.sdk.coders.Coder<K> keyCoder, boolean flushEveryBundle) {
    PartialCombineOperator<K, Long, long[]> op =
        new PartialCombineOperator<>(
            Sum.ofLongs(),
            keyCoder,
            TimestampCombiner.EARLIEST,
            flushEveryBundle,
            new OperatorMetrics(new MetricsContainerStepMap(), "partial"));
    op.open(context);
    return op;
  }

  private static <K> WindowedValue<KV<K, Long>> value(
      K key, long number, long timestamp, BoundedWindow window) {
    return WindowedValues.of(
        KV.of(key, number), new Instant(timestamp), window, PaneInfo.NO_FIRING);
  }
}
