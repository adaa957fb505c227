package io.arcon.runner.webui;

import static io.arcon.runner.webui.WebUiTestSupport.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;

/** Who may see the UI (the token) and where it listens (the next free port). */
class WebUiAccessTest {

  @Test
  void aTokenIsRequiredWhenSet() {
    String token = "s3cret/+&=\"x";
    ArconPipelineOptions options = WebUiTestSupport.options("webui-token", TestArconRunner.class);
    options.setWebUiPort(WebUiTestSupport.freePort());
    options.setWebUiToken(token);
    URI page = WebUiTestSupport.pageOf(CountingPipeline.create(options).run());
    String query = "?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);

    for (String path : List.of("/api/jobs", "/metrics", page.getPath(), "/static/job.js", "/")) {
      HttpResponse<String> refused = get(page.resolve(path));
      assertEquals(401, refused.statusCode(), path);
      assertTrue(refused.body().contains("--webUiToken"), refused.body());
      assertTrue(refused.headers().firstValue("WWW-Authenticate").isPresent(), path);
      assertEquals(
          401, get(page.resolve(path), "Authorization", "Bearer not-" + token).statusCode());
      assertEquals(401, get(page.resolve(path + "?token=wrong")).statusCode());
      assertEquals(
          200, get(page.resolve(path), "Authorization", "Bearer " + token).statusCode(), path);
      assertEquals(200, get(URI.create(page.resolve(path) + query)).statusCode(), path);
    }

    // The icon browsers ask for without the token: there is none, so nothing is refused.
    assertEquals(204, get(page.resolve("/favicon.ico")).statusCode());

    // The page passes the token on to what it loads, escaped for HTML.
    HttpResponse<String> html = get(URI.create(page + query));
    String escaped = Pages.escapeHtml(query);
    assertTrue(html.body().contains("src=\"/static/job.js" + escaped + "\""), html.body());
    assertTrue(html.body().contains("href=\"/static/webui.css" + escaped + "\""), html.body());
  }

  @Test
  void theNextFreePortIsTakenWhenTheFirstIsBusy() throws IOException {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ArconPipelineOptions options = WebUiTestSupport.options("webui-port", TestArconRunner.class);
      options.setWebUiPort(busy.getLocalPort());
      PipelineResult result = CountingPipeline.create(options).run();
      URI page = WebUiTestSupport.pageOf(result);
      assertTrue(
          page.getPort() > busy.getLocalPort()
              && page.getPort() < busy.getLocalPort() + WebUiServer.PORTS_TRIED,
          page + " is on one of the next ports after the busy " + busy.getLocalPort());
      assertEquals(200, get(page.resolve("/api/jobs/" + WebUiTestSupport.idOf(page))).statusCode());
    }
  }

  @Test
  void noFreePortInTheRangeIsAClearError() throws IOException {
    int first = WebUiTestSupport.freePort();
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int port = first; port < first + WebUiServer.PORTS_TRIED && port <= 65535; port++) {
        try {
          held.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
        } catch (IOException takenByAnother) {
          // Busy either way.
        }
      }
      ArconPipelineOptions options =
          WebUiTestSupport.options("webui-no-port", TestArconRunner.class);
      options.setWebUiPort(first);
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> CountingPipeline.create(options).run());
      assertTrue(
          e.getMessage().startsWith("The web UI found no free port on 127.0.0.1: ports " + first),
          e.getMessage());
      assertTrue(e.getMessage().contains("--webUiPort=<port>"), e.getMessage());
      assertTrue(e.getMessage().contains("--webUi=off"), e.getMessage());
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }
}
