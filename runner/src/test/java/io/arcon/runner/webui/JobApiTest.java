package io.arcon.runner.webui;

import static io.arcon.runner.webui.WebUiTestSupport.get;
import static io.arcon.runner.webui.WebUiTestSupport.getJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.arcon.runner.ArconPipelineResult;
import io.arcon.runner.TestArconRunner;
import io.arcon.runtime.job.JobMonitor;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.util.UserCodeException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JSON API and pages of a job that ran to its end on TestArconRunner with {@code --webUi=on}:
 * its graph holds the pipeline's transforms, and its figures and Beam metrics equal what {@code
 * PipelineResult.metrics()} and the input (numbers 0..N-1) say.
 */
class JobApiTest {
  private static PipelineResult result;
  private static List<String> transforms;
  private static URI page;
  private static JsonNode job;

  @BeforeAll
  static void runJob() {
    Pipeline p =
        CountingPipeline.create(WebUiTestSupport.options("webui-api", TestArconRunner.class));
    result = p.run(); // TestArconRunner returns once the job ended
    transforms = CountingPipeline.transformNames(p);
    page = WebUiTestSupport.pageOf(result);
    job = getJson(page.resolve("/api/jobs/" + WebUiTestSupport.idOf(page)));
  }

  @Test
  void theJobIsListedWithItsPage() {
    JsonNode jobs = getJson(page.resolve("/api/jobs")).get("jobs");
    JsonNode listed = null;
    for (JsonNode j : jobs) {
      if (j.get("id").asText().equals(WebUiTestSupport.idOf(page))) {
        listed = j;
      }
    }
    assertNotNull(listed, "job listed in " + jobs);
    assertEquals("webui-api", listed.get("name").asText());
    assertEquals("DONE", listed.get("state").asText());
    assertEquals(page.getPath(), listed.get("page").asText());
    assertTrue(listed.get("tssPage").isNull(), "no TSS page for a job without TSS");
    assertEquals(1, listed.get("attempts").asInt());
    long started = listed.get("startTimeMillis").asLong();
    long ended = listed.get("endTimeMillis").asLong();
    assertTrue(
        ended >= started && ended <= System.currentTimeMillis(),
        "ended " + ended + " after its start " + started + " and before now");
    assertTrue(listed.get("failure").isNull(), "no failure for a job that is DONE");
  }

  @Test
  void aFailedJobSaysWhyAndWhenItEnded() {
    ObservedJob like = ((ArconPipelineResult) result).observedJob();
    JobMonitor failing = new JobMonitor(1);
    assertEquals(0, failing.endedAtMillis(), "no end time while it runs");
    long before = System.currentTimeMillis();
    failing.nodeFailed(UserCodeException.wrap(new IllegalStateException("boom at 5000")));
    WebUiSettings settings =
        new WebUiSettings(
            true, WebUiTestSupport.freePort(), InetAddress.getLoopbackAddress(), null);
    URI failedPage =
        WebUi.register(
            settings, new ObservedJob("failing", like.stats(), like.metrics(), failing, null));
    JsonNode failed = getJson(failedPage.resolve("/api/jobs/" + WebUiTestSupport.idOf(failedPage)));
    assertEquals(
        "java.lang.IllegalStateException: boom at 5000",
        failed.get("failure").asText(),
        "the user's exception, unwrapped");
    assertTrue(failed.get("endTimeMillis").asLong() >= before, failed.toString());
  }

  @Test
  void theGraphShowsTheJobsTransforms() {
    JsonNode graph = job.get("graph");
    Set<String> operators = new HashSet<>();
    Map<Integer, JsonNode> vertices = new HashMap<>();
    for (JsonNode v : graph.get("vertices")) {
      vertices.put(v.get("id").asInt(), v);
      assertEquals(2, v.get("parallelism").asInt(), "parallelism of " + v);
      for (JsonNode op : v.get("operators")) {
        operators.add(op.asText());
      }
    }
    for (String op : operators) {
      assertTrue(transforms.contains(op), op + " is a transform of the pipeline " + transforms);
    }
    for (String named : CountingPipeline.NAMED_TRANSFORMS) {
      assertTrue(
          operators.stream().anyMatch(op -> op.equals(named) || op.startsWith(named + "/")),
          named + " is shown in " + operators);
    }
    // The GroupByKey's chain is fed by key.
    int groupVertex = vertexOf("Group");
    boolean keyedIntoGroup = false;
    for (JsonNode e : graph.get("edges")) {
      assertTrue(vertices.containsKey(e.get("source").asInt()), "edge source " + e);
      assertTrue(vertices.containsKey(e.get("target").asInt()), "edge target " + e);
      if (e.get("target").asInt() == groupVertex && e.get("kind").asText().equals("KEYED")) {
        keyedIntoGroup = true;
      }
    }
    assertTrue(keyedIntoGroup, "a KEYED edge into the Group chain: " + graph.get("edges"));
  }

  /** The id of the vertex whose chain holds {@code transform}. */
  private static int vertexOf(String transform) {
    for (JsonNode v : job.get("graph").get("vertices")) {
      for (JsonNode op : v.get("operators")) {
        if (op.asText().equals(transform) || op.asText().startsWith(transform + "/")) {
          return v.get("id").asInt();
        }
      }
    }
    throw new AssertionError("no chain holds " + transform);
  }

  @Test
  void theFinalFiguresAddUp() {
    assertEquals("DONE", job.get("state").asText());
    assertTrue(job.get("final").asBoolean(), "figures read after the end");
    int groupVertex = vertexOf("Group");
    for (JsonNode v : job.get("vertices")) {
      assertEquals("FINISHED", v.get("status").asText(), "status of " + v.get("name"));
      long in = 0;
      long out = 0;
      for (JsonNode i : v.get("instances")) {
        assertEquals("FINISHED", i.get("status").asText());
        in += i.get("recordsIn").asLong();
        out += i.get("recordsOut").asLong();
        assertEquals("end", i.get("outputWatermark").asText(), "every input ended");
        assertTrue(i.get("outputWatermarkLagMillis").isNull());
        assertEquals(0.0, i.get("recordsInPerSecond").asDouble(), "no rates after the end");
      }
      assertEquals(in, v.get("recordsIn").asLong(), "vertex total of records in");
      assertEquals(out, v.get("recordsOut").asLong(), "vertex total of records out");
      assertEquals(2, v.get("instances").size());
      if (v.get("id").asInt() == groupVertex) {
        // Every number crosses the keyed edge into the GroupByKey once.
        assertEquals(CountingPipeline.N, in, "records into the Group chain");
      }
    }
    assertEquals(
        CountingPipeline.N,
        job.get("vertices").get(vertexIndexFeeding(groupVertex)).get("recordsOut").asLong(),
        "records out of the chain feeding the Group chain");
  }

  @Test
  void thePinnedNodeThreadsAreInTheJob() {
    JsonNode threads = job.get("nodeThreads");
    assertEquals(Runtime.getRuntime().availableProcessors(), threads.get("threads").asInt());
    for (String count : List.of("steals", "sparesStarted", "sparesRunning")) {
      assertTrue(threads.get(count).asLong() >= 0, count + " in " + threads);
    }
  }

  private static int vertexIndexFeeding(int target) {
    for (JsonNode e : job.get("graph").get("edges")) {
      if (e.get("target").asInt() == target) {
        int source = e.get("source").asInt();
        for (int i = 0; i < job.get("vertices").size(); i++) {
          if (job.get("vertices").get(i).get("id").asInt() == source) {
            return i;
          }
        }
      }
    }
    throw new AssertionError("nothing feeds vertex " + target);
  }

  @Test
  void beamMetricsAreThoseOfThePipelineResult() {
    MetricQueryResults expected = result.metrics().allMetrics();
    JsonNode metrics = job.get("metrics");

    Map<String, Long> counters = new TreeMap<>();
    for (MetricResult<Long> c : expected.getCounters()) {
      counters.put(key(c), c.getAttempted());
    }
    Map<String, Long> shownCounters = new TreeMap<>();
    for (JsonNode c : metrics.get("counters")) {
      shownCounters.put(key(c), c.get("value").asLong());
    }
    assertEquals(counters, shownCounters, "counters");

    Map<String, List<Long>> distributions = new TreeMap<>();
    for (MetricResult<DistributionResult> d : expected.getDistributions()) {
      DistributionResult r = d.getAttempted();
      distributions.put(key(d), List.of(r.getCount(), r.getSum(), r.getMin(), r.getMax()));
    }
    Map<String, List<Long>> shownDistributions = new TreeMap<>();
    for (JsonNode d : metrics.get("distributions")) {
      shownDistributions.put(
          key(d),
          List.of(
              d.get("count").asLong(),
              d.get("sum").asLong(),
              d.get("min").asLong(),
              d.get("max").asLong()));
    }
    assertEquals(distributions, shownDistributions, "distributions");

    Map<String, Long> gauges = new TreeMap<>();
    for (MetricResult<GaugeResult> g : expected.getGauges()) {
      gauges.put(key(g), g.getAttempted().getValue());
    }
    Map<String, Long> shownGauges = new TreeMap<>();
    for (JsonNode g : metrics.get("gauges")) {
      shownGauges.put(key(g), g.get("value").asLong());
    }
    assertEquals(gauges, shownGauges, "gauges");
  }

  @Test
  void userMetricsEqualWhatTheInputImplies() {
    long n = CountingPipeline.N;
    assertEquals(n, userCounter("seen"));
    assertEquals(CountingPipeline.KEYS, userCounter("groups"));
    assertEquals(n, userCounter("grouped"));
    JsonNode value = userMetric("distributions", "value");
    assertEquals(n, value.get("count").asLong());
    assertEquals(n * (n - 1) / 2, value.get("sum").asLong());
    assertEquals(0, value.get("min").asLong());
    assertEquals(n - 1, value.get("max").asLong());
    JsonNode last = userMetric("gauges", "last");
    long lastValue = last.get("value").asLong();
    assertTrue(lastValue >= 0 && lastValue < n, "the gauge holds one of the numbers: " + last);
  }

  private static long userCounter(String name) {
    return userMetric("counters", name).get("value").asLong();
  }

  /** The one metric of namespace "webui" with that name (all instances of a step share one). */
  private static JsonNode userMetric(String kind, String name) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode m : job.get("metrics").get(kind)) {
      if (m.get("namespace").asText().equals("webui") && m.get("name").asText().equals(name)) {
        found.add(m);
      }
    }
    assertEquals(1, found.size(), kind + " named " + name + ": " + found);
    return found.get(0);
  }

  @Test
  void thePagesAreServedWithoutOutsideResources() {
    for (String path : List.of(page.getPath(), "/")) {
      HttpResponse<String> html = get(page.resolve(path));
      assertEquals(200, html.statusCode(), path);
      assertEquals("text/html; charset=utf-8", html.headers().firstValue("Content-Type").get());
      assertTrue(
          html.headers()
              .firstValue("Content-Security-Policy")
              .orElse("")
              .contains("default-src 'none'"),
          "no outside resources allowed");
      assertFalse(html.body().contains("http://") || html.body().contains("https://"), html.body());
    }
    for (String script : List.of("common.js", "graph.js", "job.js", "tss.js", "index.js")) {
      HttpResponse<String> js = get(page.resolve("/static/" + script));
      assertEquals(200, js.statusCode(), script);
      assertTrue(js.headers().firstValue("Content-Type").get().startsWith("text/javascript"));
      assertFalse(js.body().contains("innerHTML"), script + " puts text in the page as text only");
    }
    assertEquals(404, get(page.resolve("/static/..%2Fjob.html")).statusCode());
    assertEquals(404, get(page.resolve("/jobs/no-such-job")).statusCode());
    HttpResponse<String> noTss = get(page.resolve(page.getPath() + "/tss"));
    assertEquals(404, noTss.statusCode());
    assertTrue(noTss.body().contains("does not use TSS"), noTss.body());
  }

  @Test
  void onlyTheNewestEndedJobsStayListed() {
    // Views of the ended job under one name, on a server of their own.
    ObservedJob ended = ((ArconPipelineResult) result).observedJob();
    WebUiSettings settings =
        new WebUiSettings(
            true, WebUiTestSupport.freePort(), InetAddress.getLoopbackAddress(), null);
    List<URI> pages = new ArrayList<>();
    int registered = JobRegistry.ENDED_KEPT + 4;
    for (int i = 0; i < registered; i++) {
      pages.add(
          WebUi.register(
              settings,
              new ObservedJob(
                  "ended again", ended.stats(), ended.metrics(), ended.monitor(), null)));
    }
    assertEquals("/jobs/ended-again", pages.get(0).getPath(), "the name made URL-safe");
    assertEquals("/jobs/ended-again-2", pages.get(1).getPath(), "ids are unique");
    List<String> listed = new ArrayList<>();
    for (JsonNode j : getJson(pages.get(0).resolve("/api/jobs")).get("jobs")) {
      listed.add(j.get("page").asText());
    }
    List<String> newest = new ArrayList<>();
    for (URI p : pages.subList(registered - JobRegistry.ENDED_KEPT, registered)) {
      newest.add(p.getPath());
    }
    assertEquals(newest, listed);
    assertEquals(404, get(pages.get(0)).statusCode(), "the oldest is forgotten");
    assertEquals(200, get(pages.get(registered - 1)).statusCode());

    // A name that reads as the next numbered id of another name takes that id; the other name's
    // next job then gets the one after, and a name equal to an id given out gets one of its own.
    URI numberedName = register(settings, ended, "ended-again-" + (registered + 1));
    URI next = register(settings, ended, "ended again");
    URI nameOfAnId = register(settings, ended, "ended-again-2");
    assertEquals("/jobs/ended-again-" + (registered + 1), numberedName.getPath());
    assertEquals("/jobs/ended-again-" + (registered + 2), next.getPath(), "ids are never reused");
    assertEquals("/jobs/ended-again-2-2", nameOfAnId.getPath());
  }

  private static URI register(WebUiSettings settings, ObservedJob like, String name) {
    return WebUi.register(
        settings, new ObservedJob(name, like.stats(), like.metrics(), like.monitor(), null));
  }

  private static String key(MetricResult<?> r) {
    return r.getKey().stepName()
        + "|"
        + r.getName().getNamespace()
        + "|"
        + r.getName().getName()
        + "|"
        + new TreeMap<>(r.getName().getLabels());
  }

  private static String key(JsonNode m) {
    Map<String, String> labels = new TreeMap<>();
    m.get("labels").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
    return m.get("step").asText()
        + "|"
        + m.get("namespace").asText()
        + "|"
        + m.get("name").asText()
        + "|"
        + labels;
  }
}
