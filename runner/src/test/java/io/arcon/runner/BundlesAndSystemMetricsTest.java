package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
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

  /** The most elements any bundle of any instance held; static for the same reason. */
  static final class LargestBundle extends DoFn<Long, Long> {
    static final Map<String, AtomicInteger> LARGEST = new ConcurrentHashMap<>();
    private final String name;
    private final long sleepMillis;
    private int elementsInBundle;

    LargestBundle(String name, long sleepMillis) {
      this.name = name;
      this.sleepMillis = sleepMillis;
    }

    @StartBundle
    public void start() {
      elementsInBundle = 0;
    }

    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) throws InterruptedException {
      if (sleepMillis > 0) {
        Thread.sleep(sleepMillis);
      }
      elementsInBundle++;
      out.output(x);
    }

    @FinishBundle
    public void finish() {
      LARGEST
          .computeIfAbsent(name, n -> new AtomicInteger())
          .accumulateAndGet(elementsInBundle, Math::max);
    }
  }

  @Test
  void bundlesEndAtMaxBundleSizeInsideABatch() {
    LargestBundle.LARGEST.clear();
    Pipeline p = pipeline();
    p.getOptions().as(ArconPipelineOptions.class).setMaxBundleSize(10L);
    // Next to the source (its polls) and behind a shuffle (batches of 512 from another node).
    p.apply(GenerateSequence.from(0).to(3_000))
        .apply("NextToTheSource", ParDo.of(new LargestBundle("source", 0)))
        .apply(Reshuffle.viaRandomKey())
        .apply("BehindAShuffle", ParDo.of(new LargestBundle("shuffled", 0)));
    p.run().waitUntilFinish();
    assertEquals(10, LargestBundle.LARGEST.get("source").get(), "next to the source");
    assertEquals(10, LargestBundle.LARGEST.get("shuffled").get(), "behind a shuffle");
  }

  @Test
  void aSlowDoFnsBundlesEndAtMaxBundleTimeMills() {
    LargestBundle.LARGEST.clear();
    Pipeline p = pipeline();
    p.getOptions().as(ArconPipelineOptions.class).setMaxBundleTimeMills(100L);
    // 20 ms per element: a bundle of 100 ms holds a few elements, not the poll's whole batch.
    p.apply(GenerateSequence.from(0).to(120))
        .apply("Slow", ParDo.of(new LargestBundle("slow", 20)));
    p.run().waitUntilFinish();
    int largest = LargestBundle.LARGEST.get("slow").get();
    assertTrue(largest <= 16, "the largest bundle held " + largest + " elements of 20 ms");
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
