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
import io.arcon.runner.tss.TssSettings;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TSS page's data: a running job's control plane, and one that does not answer. */
class TssPageTest {

  @Test
  void appsAndAWaitingVersionOfARunningJob(@TempDir Path home) throws Exception {
    try (TssJob job = TssJob.start("webui_tss_api", home)) {
      String id = WebUiTestSupport.idOf(job.page);
      JsonNode detail = getJson(job.page.resolve("/api/jobs/" + id));
      assertEquals("RUNNING", detail.get("state").asText());
      assertEquals(job.app, detail.get("tss").get("app").asText());
      assertEquals(job.endpoint(), detail.get("tss").get("endpoint").asText());
      assertEquals("/jobs/" + id + "/tss", detail.get("tssPage").asText());

      JsonNode tss = getJson(job.page.resolve("/api/jobs/" + id + "/tss"));
      assertTrue(tss.get("reachable").asBoolean(), tss.toString());
      assertTrue(tss.get("error").isNull(), tss.toString());
      assertEquals(job.app, tss.get("app").asText());
      JsonNode app = only(tss.get("apps"), "name", job.app);
      assertTrue(app.get("connected").asBoolean(), app.toString());
      assertEquals(1, app.get("states").asInt(), "the one state of HoldAndSum: " + app);

      JsonNode waits = only(tss.get("tss"), "name", job.tss);
      assertEquals("0", waits.get("committed").asText());
      assertEquals("1", waits.get("pending").asText());
      assertEquals(job.app + ".total", waits.get("states").asText());
      JsonNode version = only(waits.get("versions"), "version", "2099-01-01T00:00:00Z");
      assertEquals("waiting", version.get("status").asText());
      // The control plane says why: the app has not passed 2099.
      assertTrue(
          version.get("detail").asText().startsWith("waiting on " + job.app + " ("),
          version.toString());

      HttpResponse<String> page = get(job.page.resolve("/jobs/" + id + "/tss"));
      assertEquals(200, page.statusCode());
      assertTrue(page.body().contains("/static/tss.js"), page.body());
    }
  }

  @Test
  void anUnreachableControlPlaneIsShownAsSuch() throws Exception {
    // A real job's figures, shown with a control plane address where nothing listens.
    PipelineResult ran =
        CountingPipeline.create(WebUiTestSupport.options("webui-tss-down", TestArconRunner.class))
            .run();
    ObservedJob finished = ((ArconPipelineResult) ran).observedJob();
    int nothingListens = WebUiTestSupport.freePort();
    TssSettings down =
        new TssSettings(
            true,
            "webui_tss_down",
            "127.0.0.1",
            nothingListens,
            Path.of("unused"),
            null,
            List.of(),
            Duration.ofHours(1));
    ObservedJob job =
        new ObservedJob(
            "webui-tss-down-view", finished.stats(), finished.metrics(), finished.monitor(), down);
    URI page =
        WebUi.register(
            new WebUiSettings(
                true, WebUiTestSupport.SHARED_PORT, InetAddress.getLoopbackAddress(), null),
            job);

    JsonNode tss = getJson(page.resolve("/api/jobs/" + WebUiTestSupport.idOf(page) + "/tss"));
    assertFalse(tss.get("reachable").asBoolean(), tss.toString());
    assertTrue(
        tss.get("error")
            .asText()
            .startsWith("cannot reach the TSS control plane at 127.0.0.1:" + nothingListens),
        tss.toString());
    assertEquals(0, tss.get("apps").size());
    assertEquals(0, tss.get("tss").size());
    HttpResponse<String> html = get(page.resolve(page.getPath() + "/tss"));
    assertEquals(200, html.statusCode(), "an unreachable control plane is not an error page");
  }

  private static JsonNode only(JsonNode array, String field, String value) {
    JsonNode found = null;
    for (JsonNode item : array) {
      if (item.get(field).asText().equals(value)) {
        assertTrue(found == null, "two with " + field + "=" + value + " in " + array);
        found = item;
      }
    }
    assertNotNull(found, "none with " + field + "=" + value + " in " + array);
    return found;
  }
}
