package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.WithTimestamps;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/** What user code and metrics see of bundles: no empty bundles, and per-PCollection counts. */
class BundlesAndSystemMetricsTest {

  private static Pipeline pipeline() {
    return TestPipelines.create(ArconRunner.class);
  }

  /** Counts bundles; static because each parallel instance is a deserialized copy. */
  static final class BundleCounting extends DoFn<KV<Long, Iterable<Long>>, Long> {
    static final AtomicInteger STARTED = new AtomicInteger();
    static final AtomicInteger EMPTY = new AtomicInteger();
    private int elementsInBundle;

    @StartBundle
    public void start() {
      STARTED.incrementAndGet();
      elementsInBundle = 0;
    }

    @ProcessElement
    public void process(@Element KV<Long, Iterable<Long>> group, OutputReceiver<Long> out) {
      elementsInBundle++;
      out.output(group.getKey());
    }

    @FinishBundle
    public void finish() {
      if (elementsInBundle == 0) {
        EMPTY.incrementAndGet();
      }
    }
  }

  @Test
  void aDoFnNeverSeesAnEmptyBundle() {
    BundleCounting.STARTED.set(0);
    BundleCounting.EMPTY.set(0);
    Pipeline p = pipeline();
    // Many windows: the node running the ParDo behind the GroupByKey advances its watermark and
    // fires timers far more often than the GroupByKey emits panes.
    p.apply(GenerateSequence.from(0).to(2_000))
        .apply(WithTimestamps.of((Long x) -> new Instant(x)))
        .apply(Window.into(FixedWindows.of(Duration.millis(10))))
        .apply(WithKeys.of((Long x) -> x % 3).withKeyType(TypeDescriptors.longs()))
        .apply(GroupByKey.create())
        .apply(ParDo.of(new BundleCounting()));
    p.run().waitUntilFinish();
    assertTrue(BundleCounting.STARTED.get() > 0, "the DoFn ran");
    assertEquals(0, BundleCounting.EMPTY.get(), "bundles without any element");
  }

  static final class EmitTwice extends DoFn<Long, Long> {
    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) {
      out.output(x);
      out.output(-x);
    }
  }

  @Test
  void parDosAndGroupByKeysReportTheElementCountOfTheirOutput() {
    Pipeline p = pipeline();
    p.apply(GenerateSequence.from(0).to(1_000))
        .apply("EmitTwice", ParDo.of(new EmitTwice()))
        .apply(WithKeys.of((Long x) -> x % 7).withKeyType(TypeDescriptors.longs()))
        .apply("Group", GroupByKey.create());
    PipelineResult result = p.run();
    result.waitUntilFinish();
    // MonitoringInfo names match no MetricNameFilter (a filter compares plain names), so select
    // the system counters by name from all metrics.
    List<MetricResult<Long>> counts = new ArrayList<>();
    for (MetricResult<Long> c : result.metrics().allMetrics().getCounters()) {
      if (c.getName().getName().equals("metric:element_count:v1")) {
        counts.add(c);
      }
    }
    assertEquals(2_000L, attemptedFor(counts, "EmitTwice"), "elements EmitTwice produced");
    // Keys x % 7 of x and -x for x in [0, 1000): -6 .. 6.
    assertEquals(13L, attemptedFor(counts, "Group"), "groups the GroupByKey produced");
  }

  private static long attemptedFor(List<MetricResult<Long>> counts, String step) {
    return counts.stream()
        .filter(r -> r.getKey().stepName().startsWith(step))
        .mapToLong(MetricResult::getAttempted)
        .sum();
  }
}
