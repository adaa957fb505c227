package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.metrics.StringSet;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Failure, cancellation, timeouts and metrics of {@link ArconPipelineResult}. */
class PipelineResultTest {

  private static Pipeline pipeline(Class<? extends org.apache.beam.sdk.PipelineRunner<?>> runner) {
    return TestPipelines.create(runner);
  }

  static final class UserFailure extends RuntimeException {
    UserFailure(String message) {
      super(message);
    }
  }

  static final class FailOn extends DoFn<Long, Long> {
    private final long failAt;

    FailOn(long failAt) {
      this.failAt = failAt;
    }

    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) {
      if (x == failAt) {
        throw new UserFailure("bad element " + x);
      }
      out.output(x);
    }
  }

  @Test
  void aThrowingDoFnFailsThePipelineWithTheUsersException() {
    Pipeline p = pipeline(ArconRunner.class);
    p.apply(GenerateSequence.from(0).to(100_000)).apply(ParDo.of(new FailOn(5_000)));
    PipelineResult result = p.run();
    Pipeline.PipelineExecutionException e =
        assertThrows(
            Pipeline.PipelineExecutionException.class,
            () ->
                org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    Duration.ofSeconds(60), () -> result.waitUntilFinish()));
    assertInstanceOf(UserFailure.class, e.getCause());
    assertEquals("bad element 5000", e.getCause().getMessage());
    assertEquals(PipelineResult.State.FAILED, result.getState());
  }

  @Test
  void anUnboundedPipelineKeepsRunningUntilCancelled() throws Exception {
    Pipeline p = pipeline(ArconRunner.class);
    p.apply(GenerateSequence.from(0).withRate(1000, org.joda.time.Duration.standardSeconds(1)))
        .apply(ParDo.of(new FailOn(-1)));
    PipelineResult result = p.run();
    assertEquals(
        PipelineResult.State.RUNNING,
        result.waitUntilFinish(org.joda.time.Duration.millis(500)),
        "waitUntilFinish(Duration) returns the state when the time is up");
    assertEquals(PipelineResult.State.CANCELLED, result.cancel());
    assertEquals(PipelineResult.State.CANCELLED, result.getState());
  }

  /** Sleeps ten minutes in its first element, and records being interrupted. */
  static final class SleepsForMinutes extends DoFn<Long, Long> {
    static final java.util.concurrent.CountDownLatch STARTED =
        new java.util.concurrent.CountDownLatch(1);
    static final java.util.concurrent.atomic.AtomicBoolean INTERRUPTED =
        new java.util.concurrent.atomic.AtomicBoolean();

    @ProcessElement
    public void process(@Element Long x) throws InterruptedException {
      STARTED.countDown();
      try {
        Thread.sleep(600_000);
      } catch (InterruptedException e) {
        INTERRUPTED.set(true);
        throw e;
      }
    }
  }

  /**
   * A cancel interrupts a DoFn that sleeps (as Flink interrupts a cancelled task's thread), so the
   * job stops and cancel() returns CANCELLED, instead of giving up after its wait with the thread
   * still asleep.
   */
  @Test
  void cancelInterruptsADoFnThatSleeps() throws Exception {
    Pipeline p = pipeline(ArconRunner.class);
    p.apply(GenerateSequence.from(0).withRate(10, org.joda.time.Duration.standardSeconds(1)))
        .apply(ParDo.of(new SleepsForMinutes()));
    PipelineResult result = p.run();
    assertTrue(SleepsForMinutes.STARTED.await(60, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(PipelineResult.State.CANCELLED, result.cancel());
    assertTrue(SleepsForMinutes.INTERRUPTED.get(), "the sleeping DoFn was interrupted");
  }

  /**
   * Counts the elements it sees, across the runner's threads (the DoFn is deserialized), slowly, so
   * that a cancel always lands inside a batch.
   */
  static final class CountSeen extends DoFn<Long, Long> {
    static final java.util.concurrent.atomic.AtomicLong SEEN =
        new java.util.concurrent.atomic.AtomicLong();

    @ProcessElement
    public void process(@Element Long x) throws InterruptedException {
      SEEN.incrementAndGet();
      Thread.sleep(2);
    }
  }

  /**
   * CANCELLED means stopped: once cancel() returns, no element is processed any more (the job used
   * to report CANCELLED while its attempt's nodes were still being torn down).
   */
  @Test
  void nothingRunsAfterCancelReturns() throws Exception {
    Pipeline p = pipeline(ArconRunner.class);
    p.apply(GenerateSequence.from(0).withRate(100_000, org.joda.time.Duration.standardSeconds(1)))
        .apply(ParDo.of(new CountSeen()));
    PipelineResult result = p.run();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (CountSeen.SEEN.get() == 0) {
      assertTrue(System.nanoTime() < deadline, "no element processed within 60 s");
      Thread.sleep(10);
    }
    assertEquals(PipelineResult.State.CANCELLED, result.cancel());
    long afterCancel = CountSeen.SEEN.get();
    Thread.sleep(300);
    assertEquals(afterCancel, CountSeen.SEEN.get(), "elements processed after cancel() returned");
  }

  static final class ReportMetrics extends DoFn<Long, Long> {
    private final Counter counter = Metrics.counter(ReportMetrics.class, "elements");
    private final Distribution dist = Metrics.distribution(ReportMetrics.class, "values");
    private final Gauge gauge = Metrics.gauge(ReportMetrics.class, "last");
    private final StringSet parity = Metrics.stringSet(ReportMetrics.class, "parity");

    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) {
      counter.inc();
      dist.update(x);
      gauge.set(7);
      parity.add(x % 2 == 0 ? "even" : "odd");
      out.output(x);
    }
  }

  @Test
  void beamMetricsAreReported() {
    Pipeline p = pipeline(TestArconRunner.class);
    p.apply(GenerateSequence.from(1).to(1001)).apply("Report", ParDo.of(new ReportMetrics()));
    PipelineResult result = p.run();
    MetricQueryResults q =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.inNamespace(ReportMetrics.class))
                    .build());
    Map<String, Long> counters = new HashMap<>();
    for (MetricResult<Long> c : q.getCounters()) {
      counters.put(c.getName().getName(), c.getCommitted());
      assertTrue(c.getKey().stepName().contains("Report"), c.getKey().stepName());
    }
    assertEquals(Map.of("elements", 1000L), counters);
    MetricResult<org.apache.beam.sdk.metrics.DistributionResult> d =
        q.getDistributions().iterator().next();
    assertEquals(1000, d.getCommitted().getCount());
    assertEquals(500_500, d.getCommitted().getSum());
    assertEquals(1, d.getCommitted().getMin());
    assertEquals(1000, d.getCommitted().getMax());
    assertEquals(7, q.getGauges().iterator().next().getCommitted().getValue());
    assertEquals(
        Set.of("even", "odd"), q.getStringSets().iterator().next().getCommitted().getStringSet());
  }

  @Test
  void badOptionsAreRefusedWithAClearMessage() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setParallelism(0);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ArconRunner.fromOptions(options));
    assertTrue(e.getMessage().contains("--parallelism"), e.getMessage());

    ArconPipelineOptions threads = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    threads.setNodeThreads(-2);
    IllegalArgumentException t =
        assertThrows(IllegalArgumentException.class, () -> ArconRunner.fromOptions(threads));
    assertTrue(t.getMessage().contains("--nodeThreads"), t.getMessage());
    assertTrue(t.getMessage().contains("-2"), t.getMessage());
  }

  /**
   * Two instances of every node pinned to a single thread, and the nodes on a shared pool of two:
   * the same keyed sums either way (a GroupByKey across the instances, so both exchange data).
   */
  @ParameterizedTest
  @CsvSource({"true, 1", "false, 2", "true, 0"})
  void aPipelineRunsOnPinnedAndOnSharedNodeThreads(boolean pin, int nodeThreads) {
    Pipeline p = TestPipelines.create(TestArconRunner.class);
    ArconPipelineOptions options = p.getOptions().as(ArconPipelineOptions.class);
    options.setPinNodes(pin);
    options.setNodeThreads(nodeThreads);
    PCollection<KV<Long, Long>> sums =
        p.apply(GenerateSequence.from(0).to(10_000))
            .apply(WithKeys.of((Long n) -> n % 7).withKeyType(TypeDescriptors.longs()))
            .apply(Sum.longsPerKey());
    Map<Long, Long> expected = new HashMap<>();
    for (long n = 0; n < 10_000; n++) {
      expected.merge(n % 7, n, Long::sum);
    }
    List<KV<Long, Long>> expectedSums = new ArrayList<>();
    expected.forEach((k, v) -> expectedSums.add(KV.of(k, v)));
    PAssert.that(sums).containsInAnyOrder(expectedSums);
    assertEquals(PipelineResult.State.DONE, p.run().waitUntilFinish());
  }
}
