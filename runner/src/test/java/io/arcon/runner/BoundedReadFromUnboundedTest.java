package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.CountingSource;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;

/** Bounded reads of unbounded sources (withMaxNumRecords / withMaxReadTime). */
class BoundedReadFromUnboundedTest {

  private static Pipeline pipeline() {
    return TestPipelines.create(TestArconRunner.class);
  }

  @Test
  void maxNumRecordsReadsExactlyThatManyRecords() {
    Pipeline p = pipeline();
    // CountingSource splits into strides (0, 2, 4, ... and 1, 3, 5, ...); each split reads its even
    // share of the limit, so together they read 0..999 exactly once.
    PCollection<Long> read = p.apply(Read.from(CountingSource.unbounded()).withMaxNumRecords(1000));
    List<Long> expected = LongStream.range(0, 1000).boxed().collect(Collectors.toList());
    PAssert.that(read).containsInAnyOrder(expected);
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> p.run().waitUntilFinish());
  }

  static final class CountElements extends DoFn<Long, Long> {
    private final Counter seen = Metrics.counter(CountElements.class, "seen");

    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) {
      seen.inc();
      out.output(x);
    }
  }

  @Test
  void maxReadTimeEndsAnEndlessSourceAndKeepsWhatWasRead() {
    Pipeline p = pipeline();
    PCollection<Long> read =
        p.apply(
            GenerateSequence.from(0)
                .withRate(200, org.joda.time.Duration.standardSeconds(1))
                .withMaxReadTime(org.joda.time.Duration.standardSeconds(2)));
    PCollection<Long> counted = read.apply(ParDo.of(new CountElements()));
    PCollection<Long> distinct = counted.apply(Distinct.create());
    PAssert.thatSingleton(distinct.apply(Count.globally()))
        .satisfies(
            n -> {
              assertTrue(n > 0, "records were read before the time limit");
              return null;
            });
    PipelineResult result = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> p.run());
    long seen = 0;
    for (MetricResult<Long> c :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named(CountElements.class, "seen"))
                    .build())
            .getCounters()) {
      seen += c.getAttempted();
    }
    assertTrue(seen > 0);
    assertEquals(PipelineResult.State.DONE, result.getState());
  }
}
