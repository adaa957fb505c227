package io.arcon.runner.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arcon.runner.ArconRunner;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI in a real browser: Debian's chromium, driven by playwright-core from {@code
 * src/test/webui/check-web-ui.mjs}, opens a running job's page, finds the job's transforms in the
 * graph, sees the numbers move, and after the job ended sees the numbers {@code
 * PipelineResult.metrics()} reports. Screenshots go to {@code target/webui/}.
 *
 * <p>Skipped when chromium, node or the npm packages are missing (run {@code
 * bin/setup-browser-tests}), unless {@code ARCON_BROWSER_TESTS=required} (CI), which fails then.
 */
class WebUiBrowserTest {
  private static final Path SCRIPT_DIR = Path.of("src/test/webui");
  private static final Path SCRIPT = SCRIPT_DIR.resolve("check-web-ui.mjs");
  private static final Path SCREENSHOTS = Path.of("target/webui");
  private static final long STEP_SECONDS = 180;

  private static final int N = 20_000;
  private static final int KEYS = 11;

  @BeforeEach
  void browserIsInstalled() {
    String chromium = System.getenv().getOrDefault("ARCON_CHROMIUM", "/usr/bin/chromium");
    String missing = null;
    if (!Files.isExecutable(Path.of(chromium))) {
      missing = "chromium (" + chromium + ")";
    } else if (!runs("node", "--version")) {
      missing = "node";
    } else if (!Files.exists(SCRIPT_DIR.resolve("node_modules/playwright-core/package.json"))) {
      missing = "the npm package playwright-core (" + SCRIPT_DIR.resolve("node_modules") + ")";
    }
    if (missing != null) {
      String message =
          "The browser test needs "
              + missing
              + ": run bin/setup-browser-tests (installs Debian's chromium and the npm packages).";
      if ("required".equals(System.getenv("ARCON_BROWSER_TESTS"))) {
        fail(message + " ARCON_BROWSER_TESTS=required does not allow skipping it.");
      }
      Assumptions.abort(message);
    }
  }

  private static boolean runs(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Slow while the browser watches, so it sees the numbers move; fast once it has seen them. */
  private static final AtomicBoolean SLOW = new AtomicBoolean(true);

  static final class Throttle extends DoFn<Long, Long> {
    private final Counter passed = Metrics.counter("browser", "passed");

    @ProcessElement
    public void process(@Element Long x, OutputReceiver<Long> out) throws InterruptedException {
      if (SLOW.get()) {
        Thread.sleep(5);
      }
      passed.inc();
      out.output(x);
    }
  }

  static final class Measure extends DoFn<KV<Long, Iterable<Long>>, Long> {
    private final Counter groups = Metrics.counter("browser", "groups");

    @ProcessElement
    public void process(@Element KV<Long, Iterable<Long>> group, OutputReceiver<Long> out) {
      groups.inc();
      long size = 0;
      for (Long x : group.getValue()) {
        size++;
      }
      Metrics.distribution("browser", "group_size").update(size);
      Metrics.gauge("browser", "a_key").set(group.getKey());
      out.output(size);
    }
  }

  @Test
  void theJobPageShowsTheGraphMovingAndTheFinalFigures() throws Exception {
    SLOW.set(true);
    Pipeline p = Pipeline.create(WebUiTestSupport.options("webui-browser", ArconRunner.class));
    p.apply("Numbers", GenerateSequence.from(0).to(N))
        .apply("Throttle", ParDo.of(new Throttle()))
        .apply("Key", WithKeys.of((Long x) -> x % KEYS).withKeyType(TypeDescriptors.longs()))
        .apply("Group", GroupByKey.create())
        .apply("Measure", ParDo.of(new Measure()));
    PipelineResult result = p.run();
    Script script = null;
    try {
      ObjectNode config = WebUiTestSupport.JSON.createObjectNode();
      config.put("mode", "job");
      config.put("page", WebUiTestSupport.pageOf(result).toString());
      config.put("screenshot", SCREENSHOTS.resolve("job.png").toAbsolutePath().toString());
      ArrayNode transforms = config.putArray("transforms");
      for (String t : new String[] {"Numbers", "Throttle", "Key", "Group", "Measure"}) {
        transforms.add(t);
      }
      script = Script.start(config);
      script.awaitLine("MOVING");
      SLOW.set(false);
      assertEquals(PipelineResult.State.DONE, result.waitUntilFinish(Duration.standardMinutes(5)));
      script.send(expectations(result.metrics().allMetrics()));
      script.assertSucceeded();
      assertTrue(Files.size(SCREENSHOTS.resolve("job.png")) > 0, "screenshot saved");
    } finally {
      SLOW.set(false);
      if (script != null) {
        script.destroy();
      }
      if (result.getState() == PipelineResult.State.RUNNING) {
        result.cancel();
      }
    }
  }

  /**
   * What the page must show at the end: every Beam metric as {@code PipelineResult.metrics()} has
   * it, and the records into the GroupByKey's chain, which are the N numbers.
   */
  private static String expectations(MetricQueryResults metrics) throws IOException {
    ObjectNode expected = WebUiTestSupport.JSON.createObjectNode();
    ArrayNode counters = expected.putArray("counters");
    for (MetricResult<Long> c : metrics.getCounters()) {
      key(counters.addObject(), c).put("value", c.getAttempted());
    }
    ArrayNode distributions = expected.putArray("distributions");
    for (MetricResult<DistributionResult> d : metrics.getDistributions()) {
      DistributionResult r = d.getAttempted();
      key(distributions.addObject(), d)
          .put("count", r.getCount())
          .put("sum", r.getSum())
          .put("min", r.getMin())
          .put("max", r.getMax());
    }
    ArrayNode gauges = expected.putArray("gauges");
    for (MetricResult<GaugeResult> g : metrics.getGauges()) {
      key(gauges.addObject(), g).put("value", g.getAttempted().getValue());
    }
    expected.putArray("recordsIn").addObject().put("transform", "Group").put("records", N);
    return WebUiTestSupport.JSON.writeValueAsString(expected);
  }

  private static ObjectNode key(ObjectNode node, MetricResult<?> result) {
    return node.put("step", result.getKey().stepName())
        .put("namespace", result.getName().getNamespace())
        .put("name", result.getName().getName());
  }

  @Test
  void theTssPageShowsTheAppAndWhyItsVersionWaits(@TempDir Path home) throws Exception {
    try (TssJob job = TssJob.start("webui_tss_browser", home)) {
      ObjectNode config = WebUiTestSupport.JSON.createObjectNode();
      config.put("mode", "tss");
      config.put("page", job.page + "/tss");
      config.put("screenshot", SCREENSHOTS.resolve("tss.png").toAbsolutePath().toString());
      config.put("app", job.app);
      config.put("tss", job.tss);
      Script script = Script.start(config);
      try {
        script.assertSucceeded();
      } finally {
        script.destroy();
      }
      assertTrue(Files.size(SCREENSHOTS.resolve("tss.png")) > 0, "screenshot saved");
    }
  }

  /** The Node script, its output collected line by line. */
  private static final class Script {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer output = new StringBuffer();

    private Script(Process process) {
      this.process = process;
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line; (line = in.readLine()) != null; ) {
                    output.append(line).append('\n');
                    lines.add(line);
                  }
                } catch (IOException ended) {
                  // The process was destroyed.
                }
                lines.add("<end of output>");
              },
              "check-web-ui output");
      reader.setDaemon(true);
      reader.start();
    }

    static Script start(ObjectNode config) throws IOException {
      Files.createDirectories(SCREENSHOTS);
      ProcessBuilder builder =
          new ProcessBuilder(
                  "node",
                  SCRIPT.getFileName().toString(),
                  WebUiTestSupport.JSON.writeValueAsString(config))
              .directory(SCRIPT_DIR.toFile())
              .redirectErrorStream(true);
      return new Script(builder.start());
    }

    /** Waits for a line starting with {@code prefix}; fails with the output on FAIL or the end. */
    void awaitLine(String prefix) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS);
      for (; ; ) {
        String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null) {
          fail(
              "check-web-ui.mjs printed no "
                  + prefix
                  + " within "
                  + STEP_SECONDS
                  + " s:\n"
                  + output);
        }
        if (line.startsWith(prefix)) {
          return;
        }
        if (line.startsWith("FAIL") || line.equals("<end of output>")) {
          fail("check-web-ui.mjs failed before " + prefix + ":\n" + output);
        }
      }
    }

    void send(String line) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    void assertSucceeded() throws InterruptedException {
      if (!process.waitFor(STEP_SECONDS, TimeUnit.SECONDS)) {
        fail("check-web-ui.mjs did not end within " + STEP_SECONDS + " s:\n" + output);
      }
      // The reader thread sees the last lines a moment after the exit.
      while (!lines.contains("<end of output>")) {
        Thread.sleep(10);
      }
      assertEquals(0, process.exitValue(), () -> "check-web-ui.mjs failed:\n" + output);
      assertTrue(output.toString().contains("\nOK\n"), () -> "no OK from the script:\n" + output);
    }

    void destroy() {
      process.destroyForcibly();
    }
  }
}
