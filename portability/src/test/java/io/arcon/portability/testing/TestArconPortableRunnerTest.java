package io.arcon.portability.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.portability.jobservice.ArconJobServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.FlatMapElements;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

/**
 * Java pipelines through the Job API with {@code --runner=TestArconPortableRunner}: over gRPC to
 * the job server the runner starts in this JVM, or to the one {@code --jobEndpoint} names.
 */
class TestArconPortableRunnerTest {

  private static Pipeline pipeline(String... extraArgs) {
    List<String> args =
        new ArrayList<>(List.of("--runner=TestArconPortableRunner", "--parallelism=2"));
    args.addAll(List.of(extraArgs));
    PipelineOptions options = PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).create();
    return Pipeline.create(options);
  }

  private static PCollection<KV<String, Long>> wordCounts(Pipeline p) {
    return p.apply(Create.of("a b c", "b c", "c"))
        .apply(
            FlatMapElements.into(TypeDescriptors.strings()).via(l -> Arrays.asList(l.split(" "))))
        .apply(Count.perElement());
  }

  static final class CountingFn extends DoFn<KV<String, Long>, String> {
    private final Counter words = Metrics.counter(TestArconPortableRunnerTest.class, "words");

    @ProcessElement
    public void process(@Element KV<String, Long> kv, OutputReceiver<String> out) {
      words.inc(kv.getValue());
      out.output(kv.getKey() + "=" + kv.getValue());
    }
  }

  @Test
  void wordCountPassesItsAssertionAndReportsMetrics() {
    Pipeline p = pipeline();
    PCollection<String> counts = wordCounts(p).apply(ParDo.of(new CountingFn()));
    PAssert.that(counts).containsInAnyOrder("a=1", "b=2", "c=3");

    PipelineResult result = p.run();

    assertEquals(PipelineResult.State.DONE, result.getState());
    MetricQueryResults metrics =
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(
                        MetricNameFilter.named(TestArconPortableRunnerTest.class, "words"))
                    .build());
    long words = 0;
    for (var counter : metrics.getCounters()) {
      words += counter.getAttempted();
    }
    assertEquals(6, words);
  }

  @Test
  void aFailingAssertionFailsTheRunWithItsMessage() {
    Pipeline p = pipeline();
    PCollection<String> counts =
        wordCounts(p)
            .apply(
                MapElements.into(TypeDescriptors.strings())
                    .via(kv -> kv.getKey() + "=" + kv.getValue()));
    PAssert.that(counts).containsInAnyOrder(List.of("a=1", "b=2", "c=4"));

    AssertionError error = assertThrows(AssertionError.class, p::run);

    assertTrue(error.getMessage().contains("c=4"), error.getMessage());
    assertTrue(error.getMessage().contains("c=3"), error.getMessage());
  }

  @Test
  void runsOnTheJobServerThatJobEndpointNames() {
    try (ArconJobServer server = ArconJobServer.start()) {
      Pipeline p = pipeline("--jobEndpoint=" + server.jobEndpoint());
      PAssert.that(wordCounts(p))
          .containsInAnyOrder(KV.of("a", 1L), KV.of("b", 2L), KV.of("c", 3L));

      PipelineResult result = p.run();

      assertEquals(PipelineResult.State.DONE, result.getState());
      assertTrue(
          ((PortablePipelineResult) result).jobId().length() > 0, "the server gave the job an id");
    }
  }

  @Test
  void aJobEndpointWithoutAPortIsRefusedWithAHint() {
    Pipeline p = pipeline("--jobEndpoint=localhost");
    p.apply(Create.of(1));

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, p::run);

    assertTrue(error.getMessage().contains("host:port"), error.getMessage());
  }

  @Test
  void aFailingDoFnFailsTheRunWithItsError() {
    Pipeline p = pipeline();
    p.apply(Create.of(1, 2, 3))
        .apply(
            MapElements.into(TypeDescriptors.integers())
                .via(
                    (Integer i) -> {
                      if (i == 2) {
                        throw new IllegalStateException("element two is not welcome");
                      }
                      return i;
                    }));

    Pipeline.PipelineExecutionException error =
        assertThrows(Pipeline.PipelineExecutionException.class, p::run);

    assertTrue(
        String.valueOf(error.getCause().getMessage()).contains("element two is not welcome"),
        String.valueOf(error.getCause().getMessage()));
  }
}
