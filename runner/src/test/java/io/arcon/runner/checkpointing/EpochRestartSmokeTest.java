package io.arcon.runner.checkpointing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EpochRestartSmokeTest {
  static final Map<Long, Long> LAST_COUNT = new ConcurrentHashMap<>();
  static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

  /** Counts per key; fails (once per FAILURES_LEFT) at the 3000th element of key 0. */
  static class CountPerKey extends DoFn<KV<Long, Long>, KV<Long, Long>> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value();

    @ProcessElement
    public void process(
        @Element KV<Long, Long> e,
        @StateId("count") ValueState<Long> count,
        OutputReceiver<KV<Long, Long>> out) {
      long c = count.read() == null ? 1 : count.read() + 1;
      count.write(c);
      if (e.getKey() == 0 && c == 3000 && FAILURES_LEFT.getAndDecrement() > 0) {
        throw new IllegalStateException("injected failure");
      }
      out.output(KV.of(e.getKey(), c));
    }
  }

  static class Remember extends DoFn<KV<Long, Long>, Void> {
    @ProcessElement
    public void process(@Element KV<Long, Long> e) {
      LAST_COUNT.merge(e.getKey(), e.getValue(), Math::max);
    }
  }

  @Test
  void aFailedAttemptRestartsFromItsEpochWithExactState(@TempDir Path dir) {
    LAST_COUNT.clear();
    FAILURES_LEFT.set(1);
    PipelineResult result = run(dir, 2);
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    assertEquals(0, FAILURES_LEFT.get() > 0 ? 1 : 0, "the failure was injected");
    for (long k = 0; k < 4; k++) {
      assertEquals(10_000L, LAST_COUNT.get(k), "count of key " + k);
    }
    MetricQueryResults epochs =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(EpochMetrics.NAMESPACE, "completed"))
                    .build());
    long completed = 0;
    for (var counter : epochs.getCounters()) {
      completed += counter.getAttempted();
    }
    assertTrue(completed > 0, "epochs completed: " + completed);
    assertFalse(
        Files.exists(dir.resolve("epoch_smoke")), "a finished job's checkpoints are deleted");
  }

  @Test
  void afterTheLastRetryTheJobFailsWithTheUsersExceptionAndKeepsItsCheckpoints(@TempDir Path dir) {
    LAST_COUNT.clear();
    FAILURES_LEFT.set(100);
    PipelineResult result = run(dir, 2);
    Pipeline.PipelineExecutionException e =
        assertThrows(Pipeline.PipelineExecutionException.class, result::waitUntilFinish);
    assertEquals("injected failure", e.getCause().getMessage());
    assertEquals(100 - 3, FAILURES_LEFT.get(), "one failure per attempt: the first and 2 retries");
    assertTrue(Files.isDirectory(dir.resolve("epoch_smoke")), "checkpoints of a failed job stay");
  }

  private static PipelineResult run(Path dir, int retries) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setParallelism(2);
    options.setTss("off");
    options.setJobName("epoch-smoke");
    options.setCheckpointingInterval(50L);
    options.setCheckpointDir(dir.toString());
    options.setNumberOfExecutionRetries(retries);
    options.setExecutionRetryDelay(10L);
    Pipeline p = Pipeline.create(options);
    p.apply(GenerateSequence.from(0).to(40_000).withRate(20_000, Duration.standardSeconds(1)))
        .apply(WithKeys.of((Long i) -> i % 4).withKeyType(TypeDescriptors.longs()))
        .apply(ParDo.of(new CountPerKey()))
        .apply(ParDo.of(new Remember()));
    return p.run();
  }
}
