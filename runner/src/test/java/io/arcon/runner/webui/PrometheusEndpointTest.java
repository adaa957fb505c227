package io.arcon.runner.webui;

import static io.arcon.runner.webui.WebUiTestSupport.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.TestArconRunner;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} of a job that ran to its end, read with the tests' own parser of the text format
 * and checked against {@code PipelineResult.metrics()} and the input.
 */
class PrometheusEndpointTest {
  /** A step name that needs escaping in a label value. */
  private static final String ODD_STEP = "Tally \"odd\" \\ ones";

  private static PipelineResult result;
  private static URI page;
  private static String jobId;
  private static PrometheusText metrics;

  static final class Tally extends DoFn<Long, Long> {
    private final Counter odd = Metrics.counter("webui", "odd");

    @ProcessElement
    public void process(@Element Long x) {
      if (x % 2 == 1) {
        odd.inc();
      }
    }
  }

  @BeforeAll
  static void runJobAndScrape() {
    Pipeline p =
        CountingPipeline.create(
            WebUiTestSupport.options("webui-prometheus", TestArconRunner.class));
    p.apply("MoreNumbers", GenerateSequence.from(0).to(101)).apply(ODD_STEP, ParDo.of(new Tally()));
    result = p.run();
    page = WebUiTestSupport.pageOf(result);
    jobId = WebUiTestSupport.idOf(page);
    HttpResponse<String> response = get(page.resolve("/metrics"));
    assertEquals(200, response.statusCode(), response.body());
    assertEquals(
        "text/plain; version=0.0.4; charset=utf-8",
        response.headers().firstValue("Content-Type").orElse(""));
    metrics = PrometheusText.parse(response.body());
  }

  @Test
  void beamMetricsAreThoseOfThePipelineResult() {
    MetricQueryResults expected = result.metrics().allMetrics();
    int counters = 0;
    for (MetricResult<Long> c : expected.getCounters()) {
      assertEquals(
          (double) c.getAttempted(), metrics.value("arcon_beam_counter_total", labels(c)), key(c));
      counters++;
    }
    assertEquals(
        counters,
        metrics.find("arcon_beam_counter_total", Map.of("job_id", jobId)).size(),
        "one sample per counter");
    int distributions = 0;
    for (MetricResult<DistributionResult> d : expected.getDistributions()) {
      DistributionResult r = d.getAttempted();
      Map<String, String> labels = labels(d);
      assertEquals((double) r.getCount(), metrics.value("arcon_beam_distribution_count", labels));
      assertEquals((double) r.getSum(), metrics.value("arcon_beam_distribution_sum", labels));
      assertEquals((double) r.getMin(), metrics.value("arcon_beam_distribution_min", labels));
      assertEquals((double) r.getMax(), metrics.value("arcon_beam_distribution_max", labels));
      distributions++;
    }
    assertEquals(
        distributions,
        metrics.find("arcon_beam_distribution_count", Map.of("job_id", jobId)).size());
    for (MetricResult<GaugeResult> g : expected.getGauges()) {
      assertEquals(
          (double) g.getAttempted().getValue(), metrics.value("arcon_beam_gauge", labels(g)));
    }
    assertEquals("counter", metrics.types.get("arcon_beam_counter_total"));
    assertEquals("summary", metrics.types.get("arcon_beam_distribution"));
    assertEquals("gauge", metrics.types.get("arcon_beam_gauge"));
  }

  @Test
  void userMetricsEqualWhatTheInputImplies() {
    long n = CountingPipeline.N;
    assertEquals(n, beam("arcon_beam_counter_total", "seen"));
    assertEquals(CountingPipeline.KEYS, beam("arcon_beam_counter_total", "groups"));
    assertEquals(n, beam("arcon_beam_distribution_count", "value"));
    assertEquals(n * (n - 1) / 2, beam("arcon_beam_distribution_sum", "value"));
    assertEquals(0, beam("arcon_beam_distribution_min", "value"));
    assertEquals(n - 1, beam("arcon_beam_distribution_max", "value"));
    // 1, 3, .., 99 of 0..100, under a step name with a quote and a backslash.
    assertEquals(
        50.0,
        metrics.value(
            "arcon_beam_counter_total",
            Map.of(
                "job_id",
                jobId,
                "transform",
                ODD_STEP + "/ParMultiDo(Tally)",
                "namespace",
                "webui",
                "name",
                "odd")));
  }

  private static long beam(String metric, String name) {
    List<PrometheusText.Sample> found =
        metrics.find(metric, Map.of("job_id", jobId, "namespace", "webui", "name", name));
    assertEquals(1, found.size(), metric + " " + name + ": " + found);
    return (long) found.get(0).value();
  }

  @Test
  void nodeAndJobFiguresAddUp() {
    Map<String, String> job = Map.of("job_id", jobId);
    List<PrometheusText.Sample> in = metrics.find("arcon_node_records_in_total", job);
    // Three chains (numbers and their keys, the GroupByKey's, the second source's) of 2 instances.
    assertEquals(6, in.size(), in.toString());
    double intoGroup = 0;
    for (PrometheusText.Sample s : in) {
      assertTrue(s.labels().keySet().containsAll(List.of("transform", "vertex", "node_instance")));
      if (s.labels().get("transform").equals("Group")) {
        intoGroup += s.value();
      }
    }
    // Every number crosses the keyed edge into the GroupByKey's chain once.
    assertEquals(CountingPipeline.N, intoGroup);
    for (PrometheusText.Sample s : metrics.find("arcon_node_output_watermark_seconds", job)) {
      assertEquals(Double.POSITIVE_INFINITY, s.value(), "every input ended: " + s);
    }
    assertEquals(6, metrics.find("arcon_node_backpressure_seconds_total", job).size());
    assertEquals("counter", metrics.types.get("arcon_node_records_in_total"));
    assertEquals("counter", metrics.types.get("arcon_node_backpressure_seconds_total"));
    for (PrometheusText.Sample s : metrics.find("arcon_node_state_bytes", job)) {
      assertEquals("Group", s.labels().get("transform"), "only the GroupByKey keeps state");
      assertEquals("heap", s.labels().get("engine"));
    }

    for (String state : List.of("RUNNING", "DONE", "FAILED", "CANCELLED")) {
      Map<String, String> labels = new HashMap<>(job);
      labels.put("arcon_job_state", state);
      assertEquals(state.equals("DONE") ? 1.0 : 0.0, metrics.value("arcon_job_state", labels));
    }
    assertEquals(1.0, metrics.value("arcon_job_attempts_total", job));
    assertEquals(0.0, metrics.value("arcon_job_epochs_completed_total", job));
  }

  /** Pinned by default: the job's node threads, their steals and spare threads. */
  @Test
  void theJobsNodeThreadsAreShown() {
    Map<String, String> job = Map.of("job_id", jobId);
    assertEquals(
        Runtime.getRuntime().availableProcessors(), metrics.value("arcon_job_node_threads", job));
    assertTrue(metrics.value("arcon_job_node_thread_steals_total", job) >= 0);
    assertTrue(metrics.value("arcon_job_spare_threads_started_total", job) >= 0);
    assertTrue(metrics.value("arcon_job_spare_threads", job) >= 0);
    assertEquals("counter", metrics.types.get("arcon_job_node_thread_steals_total"));
    assertEquals("counter", metrics.types.get("arcon_job_spare_threads_started_total"));
    assertEquals("gauge", metrics.types.get("arcon_job_spare_threads"));
  }

  @Test
  void theFormatFollowsTheScrapersAcceptHeader() {
    HttpResponse<String> openMetrics =
        get(page.resolve("/metrics"), "Accept", "application/openmetrics-text; version=1.0.0");
    assertTrue(
        openMetrics
            .headers()
            .firstValue("Content-Type")
            .orElse("")
            .startsWith("application/openmetrics-text"),
        openMetrics.headers().toString());
    assertTrue(openMetrics.body().endsWith("# EOF\n"), "OpenMetrics ends with # EOF");

    // Prometheus asks for protobuf first; this endpoint answers in text.
    HttpResponse<String> prometheus =
        get(
            page.resolve("/metrics"),
            "Accept",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
                + "encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1");
    assertEquals(200, prometheus.statusCode());
    assertEquals(
        "text/plain; version=0.0.4; charset=utf-8",
        prometheus.headers().firstValue("Content-Type").orElse(""));
  }

  /** job_id, transform (the step), namespace, name, and the metric's own labels in lower case. */
  private static Map<String, String> labels(MetricResult<?> r) {
    Map<String, String> labels = new HashMap<>();
    labels.put("job_id", jobId);
    labels.put("transform", r.getKey().stepName());
    labels.put("namespace", r.getName().getNamespace());
    labels.put("name", r.getName().getName());
    r.getName().getLabels().forEach((k, v) -> labels.put(k.toLowerCase(Locale.ROOT), v));
    return labels;
  }

  private static String key(MetricResult<?> r) {
    return r.getKey() + " " + r.getName();
  }
}
