package io.arcon.runner.webui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arcon.runner.ArconPipelineResult;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.observe.JobStats;
import io.arcon.runtime.observe.NodeStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;

/** The JSON of {@code /api/jobs} and {@code /api/jobs/<id>}. */
final class JobJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private JobJson() {}

  /** {@code /api/jobs}: one summary per job, oldest first. */
  static ObjectNode list(List<RegisteredJob> jobs) {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode array = root.putArray("jobs");
    for (RegisteredJob job : jobs) {
      summary(array.addObject(), job, job.figures().window().latest());
    }
    return root;
  }

  private static void summary(ObjectNode node, RegisteredJob registered, LiveFigures.Reading at) {
    ObservedJob job = registered.job();
    JobStats stats = job.stats();
    node.put("id", registered.id());
    node.put("name", job.name());
    node.put("state", at.state());
    node.put("startTime", Instant.ofEpochMilli(stats.startedAtMillis()).toString());
    node.put("startTimeMillis", stats.startedAtMillis());
    node.put("attempts", stats.attempts());
    long ended = job.monitor().endedAtMillis();
    if (ended == 0) {
      node.putNull("endTime");
      node.putNull("endTimeMillis");
    } else {
      node.put("endTime", Instant.ofEpochMilli(ended).toString());
      node.put("endTimeMillis", ended);
    }
    Throwable failure = job.monitor().failure();
    if (failure == null || !"FAILED".equals(job.state())) {
      node.putNull("failure");
    } else {
      Throwable cause = ArconPipelineResult.userCause(failure);
      node.put(
          "failure", cause.getMessage() == null ? cause.getClass().getName() : cause.toString());
    }
    node.put("page", "/jobs/" + registered.id());
    node.put("tssPage", job.tss() == null ? null : "/jobs/" + registered.id() + "/tss");
  }

  /**
   * {@code /api/jobs/<id>}: the job, its graph, live figures, epochs, its pinned node threads (null
   * when shared) and Beam metrics.
   */
  static ObjectNode detail(RegisteredJob registered) {
    LiveFigures.Window window = registered.figures().window();
    LiveFigures.Reading latest = window.latest();
    ObservedJob job = registered.job();
    ObjectNode root = MAPPER.createObjectNode();
    summary(root, registered, latest);
    root.put("sampledAt", Instant.ofEpochMilli(latest.wallMillis()).toString());
    root.put("sampledAtMillis", latest.wallMillis());
    root.put("final", latest.isFinal());
    if (job.tss() == null) {
      root.putNull("tss");
    } else {
      ObjectNode tss = root.putObject("tss");
      tss.put("app", job.tss().app());
      tss.put("endpoint", job.tss().endpoint());
    }
    graph(root.putObject("graph"), job.stats().graph());
    figures(root.putArray("vertices"), job.stats().graph(), window);
    epochs(root.putObject("epochs"), job.stats().sampleEpochs());
    job.stats()
        .sampleNodeThreads()
        .ifPresentOrElse(
            threads -> {
              ObjectNode node = root.putObject("nodeThreads");
              node.put("threads", threads.threads());
              node.put("steals", threads.steals());
              node.put("sparesStarted", threads.sparesStarted());
              node.put("sparesRunning", threads.sparesRunning());
            },
            () -> root.putNull("nodeThreads"));
    beamMetrics(root.putObject("metrics"), registered.beamMetrics());
    return root;
  }

  private static void graph(ObjectNode node, JobGraph graph) {
    ArrayNode vertices = node.putArray("vertices");
    for (Vertex v : graph.vertices()) {
      ObjectNode vertex = vertices.addObject();
      vertex.put("id", v.id());
      vertex.put("name", v.name());
      ArrayNode operators = vertex.putArray("operators");
      for (OperatorNode op : v.operators()) {
        operators.add(op.name());
      }
      vertex.put("parallelism", v.parallelism());
    }
    ArrayNode edges = node.putArray("edges");
    for (Edge e : graph.edges()) {
      ObjectNode edge = edges.addObject();
      edge.put("id", e.id());
      edge.put("source", e.source().id());
      edge.put("target", e.target().id());
      edge.put("kind", e.kind().name());
    }
  }

  /** Per vertex its totals, and per instance its own figures. */
  private static void figures(ArrayNode array, JobGraph graph, LiveFigures.Window window) {
    LiveFigures.Reading latest = window.latest();
    Map<Integer, List<Integer>> indexesByVertex = new TreeMap<>();
    for (int i = 0; i < latest.nodes().size(); i++) {
      indexesByVertex
          .computeIfAbsent(latest.nodes().get(i).vertexId(), k -> new ArrayList<>())
          .add(i);
    }
    for (Vertex v : graph.vertices()) {
      ObjectNode vertex = array.addObject();
      vertex.put("id", v.id());
      vertex.put("name", v.name());
      List<NodeStats.Sample> instances = new ArrayList<>();
      List<ObjectNode> instanceNodes = new ArrayList<>();
      Totals totals = new Totals();
      for (int index : indexesByVertex.getOrDefault(v.id(), List.of())) {
        NodeStats.Sample now = latest.nodes().get(index);
        NodeStats.Sample before =
            window.previous() == null ? null : window.previous().nodes().get(index);
        ObjectNode instance = MAPPER.createObjectNode();
        instance.put("instance", now.instance());
        nodeFigures(instance, now, before, window, totals);
        instances.add(now);
        instanceNodes.add(instance);
      }
      vertex.put("status", vertexStatus(instances));
      vertex.put("recordsIn", totals.recordsIn);
      vertex.put("recordsOut", totals.recordsOut);
      vertex.put("recordsInPerSecond", totals.recordsInPerSecond);
      vertex.put("recordsOutPerSecond", totals.recordsOutPerSecond);
      watermark(
          vertex,
          "inputWatermark",
          instances.stream()
              .mapToLong(NodeStats.Sample::inputWatermark)
              .min()
              .orElse(Long.MIN_VALUE),
          latest.wallMillis());
      watermark(
          vertex,
          "outputWatermark",
          instances.stream()
              .mapToLong(NodeStats.Sample::outputWatermark)
              .min()
              .orElse(Long.MIN_VALUE),
          latest.wallMillis());
      // The vertex is as back-pressured as its most back-pressured instance.
      vertex.put("backPressure", totals.backPressure);
      vertex.put("backPressureSeconds", totals.blockedNanos / 1e9);
      vertex.put("stateEngines", String.join(",", totals.engines));
      if (totals.stateBytes >= 0) {
        vertex.put("stateBytes", totals.stateBytes);
      } else {
        vertex.putNull("stateBytes");
      }
      vertex.putArray("instances").addAll(instanceNodes);
    }
  }

  /** What a vertex adds up from its instances. */
  private static final class Totals {
    long recordsIn;
    long recordsOut;
    double recordsInPerSecond;
    double recordsOutPerSecond;
    double backPressure;
    long blockedNanos;
    long stateBytes = -1;
    final TreeSet<String> engines = new TreeSet<>();
  }

  private static void nodeFigures(
      ObjectNode node,
      NodeStats.Sample now,
      NodeStats.Sample before,
      LiveFigures.Window window,
      Totals totals) {
    long wall = window.latest().wallMillis();
    node.put("status", now.status().name());
    node.put("recordsIn", now.recordsIn());
    node.put("recordsOut", now.recordsOut());
    double inRate = 0;
    double outRate = 0;
    double backPressure = 0;
    if (window.hasRates() && before != null) {
      double seconds = window.seconds();
      inRate = (now.recordsIn() - before.recordsIn()) / seconds;
      outRate = (now.recordsOut() - before.recordsOut()) / seconds;
      // Share of the interval the node's output waited for credits.
      backPressure =
          Math.min(1, Math.max(0, (now.blockedNanos() - before.blockedNanos()) / (seconds * 1e9)));
    }
    node.put("recordsInPerSecond", inRate);
    node.put("recordsOutPerSecond", outRate);
    watermark(node, "inputWatermark", now.inputWatermark(), wall);
    watermark(node, "outputWatermark", now.outputWatermark(), wall);
    node.put("backPressure", backPressure);
    node.put("backPressureSeconds", now.blockedNanos() / 1e9);
    node.put("stateEngines", now.stateEngines());
    if (now.stateBytes() >= 0) {
      node.put("stateBytes", now.stateBytes());
    } else {
      node.putNull("stateBytes");
    }

    totals.recordsIn += now.recordsIn();
    totals.recordsOut += now.recordsOut();
    totals.recordsInPerSecond += inRate;
    totals.recordsOutPerSecond += outRate;
    totals.backPressure = Math.max(totals.backPressure, backPressure);
    totals.blockedNanos += now.blockedNanos();
    if (now.stateBytes() >= 0) {
      totals.stateBytes = Math.max(0, totals.stateBytes) + now.stateBytes();
    }
    for (String engine : now.stateEngines().split(",")) {
      if (!engine.isBlank()) {
        totals.engines.add(engine.trim());
      }
    }
  }

  /**
   * The most telling status of a vertex's instances: FAILED if one failed, RUNNING while one runs,
   * else the status they all share (CREATED, CANCELLED or FINISHED), mixed ones as the least done.
   */
  static String vertexStatus(List<NodeStats.Sample> instances) {
    NodeStats.Status[] byPriority = {
      NodeStats.Status.FAILED,
      NodeStats.Status.RUNNING,
      NodeStats.Status.CREATED,
      NodeStats.Status.CANCELLED,
      NodeStats.Status.FINISHED
    };
    for (NodeStats.Status status : byPriority) {
      if (instances.stream().anyMatch(s -> s.status() == status)) {
        return status.name();
      }
    }
    return NodeStats.Status.CREATED.name();
  }

  /**
   * A watermark as three fields: {@code <field>} ("none" before the first, "end" once the input
   * ended, else ISO-8601), {@code <field>Millis} and {@code <field>LagMillis} (wall-clock time
   * minus the watermark), both null unless the watermark is a time.
   */
  static void watermark(ObjectNode node, String field, long millis, long wallMillis) {
    WatermarkText text = WatermarkText.of(millis);
    node.put(field, text.text());
    if (text.isTime()) {
      node.put(field + "Millis", millis);
      node.put(field + "LagMillis", wallMillis - millis);
    } else {
      node.putNull(field + "Millis");
      node.putNull(field + "LagMillis");
    }
  }

  /** A watermark as the UI writes it. */
  record WatermarkText(String text, boolean isTime) {
    static WatermarkText of(long millis) {
      if (millis <= BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis()) {
        return new WatermarkText("none", false);
      }
      if (millis >= BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis()) {
        return new WatermarkText("end", false);
      }
      return new WatermarkText(Instant.ofEpochMilli(millis).toString(), true);
    }
  }

  private static void epochs(ObjectNode node, JobStats.EpochSample epochs) {
    node.put("completed", epochs.completed());
    node.put("givenUp", epochs.givenUp());
    node.put("lastCompleted", epochs.lastCompleted());
    node.put("lastDurationMillis", epochs.lastDurationMillis());
    node.put("lastBytes", epochs.lastBytes());
    node.put(
        "lastCompletedAt",
        epochs.lastCompletedAtMillis() == 0
            ? null
            : Instant.ofEpochMilli(epochs.lastCompletedAtMillis()).toString());
    node.put("lastGivenUpReason", epochs.lastGivenUpReason());
  }

  /** Counters, distributions and gauges, per step, as {@code PipelineResult.metrics()} has them. */
  private static void beamMetrics(ObjectNode node, MetricQueryResults metrics) {
    ArrayNode counters = node.putArray("counters");
    for (MetricResult<Long> c : metrics.getCounters()) {
      metricKey(counters.addObject(), c).put("value", c.getAttempted());
    }
    ArrayNode distributions = node.putArray("distributions");
    for (MetricResult<DistributionResult> d : metrics.getDistributions()) {
      DistributionResult value = d.getAttempted();
      ObjectNode distribution = metricKey(distributions.addObject(), d);
      distribution.put("count", value.getCount());
      distribution.put("sum", value.getSum());
      distribution.put("min", value.getMin());
      distribution.put("max", value.getMax());
      distribution.put("mean", value.getCount() == 0 ? 0 : value.getMean());
    }
    ArrayNode gauges = node.putArray("gauges");
    for (MetricResult<GaugeResult> g : metrics.getGauges()) {
      GaugeResult value = g.getAttempted();
      ObjectNode gauge = metricKey(gauges.addObject(), g);
      gauge.put("value", value.getValue());
      gauge.put("timestamp", Instant.ofEpochMilli(value.getTimestamp().getMillis()).toString());
    }
  }

  private static ObjectNode metricKey(ObjectNode node, MetricResult<?> result) {
    MetricName name = result.getName();
    node.put("step", result.getKey().stepName());
    node.put("namespace", name.getNamespace());
    node.put("name", name.getName());
    ObjectNode labels = node.putObject("labels");
    name.getLabels().forEach(labels::put);
    return node;
  }
}
