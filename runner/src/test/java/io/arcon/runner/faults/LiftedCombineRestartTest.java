package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lifted combine ({@code Count.globally}, {@code Count.perKey}) over a bounded source whose
 * watermark stays at its start until the end, so the partial accumulators next to the source are
 * never flushed by a watermark: the job fails once after an epoch completed and restarts from it.
 * Every element must be counted exactly once. Before the partials were emitted ahead of each
 * epoch's marker, the restart resumed the source after elements whose only trace was in the lost
 * partials (counts of 110k-230k of 300k). Its metrics have no committed values: they would count
 * what the restart read again.
 */
class LiftedCombineRestartTest {
  private static final long ELEMENTS = 200_000;
  private static final long KEYS = 10;

  private static final AtomicLong GLOBAL_COUNT = new AtomicLong(-1);
  private static final AtomicLong GLOBAL_EMISSIONS = new AtomicLong();
  private static final Map<Long, Long> COUNTS_PER_KEY = new ConcurrentHashMap<>();
  private static volatile FailAfterEpochs failure;

  @Test
  void aRestartFromAnEpochCountsEveryElementOnce(@TempDir Path dir) {
    Path checkpoints = dir.resolve("checkpoints");
    ArconPipelineOptions options =
        FailAfterEpochs.options("lifted_combine_restart", checkpoints, 1);
    failure =
        new FailAfterEpochs(
            CheckpointDirs.jobDirectory(checkpoints, options.getJobName()), ELEMENTS / 2);

    Pipeline p = Pipeline.create(options);
    PCollection<Long> numbers =
        p.apply(GenerateSequence.from(0).to(ELEMENTS))
            .apply("FailOnceAfterAnEpoch", ParDo.of(new FailOnceAfterAnEpoch()));
    numbers.apply(Count.globally()).apply("RecordGlobal", ParDo.of(new RecordGlobal()));
    numbers
        .apply(WithKeys.of((Long x) -> x % KEYS).withKeyType(TypeDescriptors.longs()))
        .apply(Count.perKey())
        .apply("RecordPerKey", ParDo.of(new RecordPerKey()));
    PipelineResult result = p.run();
    PipelineResult.State state = result.waitUntilFinish(Duration.standardMinutes(2));

    assertEquals(PipelineResult.State.DONE, state);
    assertTrue(failure.failed(), "the job failed once after an epoch and restarted from it");
    assertEquals(1, GLOBAL_EMISSIONS.get(), "Count.globally emits once");
    assertEquals(ELEMENTS, GLOBAL_COUNT.get(), "Count.globally counts every element once");
    Map<Long, Long> expected = new java.util.TreeMap<>();
    for (long k = 0; k < KEYS; k++) {
      expected.put(k, ELEMENTS / KEYS);
    }
    assertEquals(expected, new java.util.TreeMap<>(COUNTS_PER_KEY), "Count.perKey");

    // The DoFn's counter: attempted counts the elements the restart read again; committed values
    // would hold them twice, so a job that restarted has none.
    MetricResult<Long> passed =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(LiftedCombineRestartTest.class, "passed"))
                    .build())
            .getCounters()
            .iterator()
            .next();
    assertTrue(
        passed.getAttempted() > ELEMENTS, "attempted " + passed.getAttempted() + " > " + ELEMENTS);
    assertThrows(UnsupportedOperationException.class, passed::getCommitted);
  }

  /** Fails once past the middle after some epochs (see {@link FailAfterEpochs}). */
  static final class FailOnceAfterAnEpoch extends DoFn<Long, Long> {
    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) throws InterruptedException {
      failure.slowDownAndMaybeFail(x);
      PASSED.inc();
      out.output(x);
    }
  }

  private static final Counter PASSED = Metrics.counter(LiftedCombineRestartTest.class, "passed");

  static final class RecordGlobal extends DoFn<Long, Void> {
    @ProcessElement
    public void process(@Element Long count) {
      GLOBAL_EMISSIONS.incrementAndGet();
      GLOBAL_COUNT.set(count);
    }
  }

  static final class RecordPerKey extends DoFn<KV<Long, Long>, Void> {
    @ProcessElement
    public void process(@Element KV<Long, Long> count) {
      COUNTS_PER_KEY.merge(count.getKey(), count.getValue(), Long::sum);
    }
  }
}
