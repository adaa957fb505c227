package io.arcon.runner.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconPipelineResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** Options, ports and HTTP for the web UI's tests. */
final class WebUiTestSupport {
  private WebUiTestSupport() {}

  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** The web UI port most tests share, so their jobs meet on one server as jobs of a JVM do. */
  static final int SHARED_PORT = freePort();

  /** A port nothing listens on right now. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Options of a job at parallelism 2 with the web UI on the shared port and TSS off. */
  static ArconPipelineOptions options(String jobName, Class<? extends PipelineRunner<?>> runner) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(runner);
    options.setJobName(jobName);
    options.setParallelism(2);
    options.setTss("off");
    options.setWebUi("on");
    options.setWebUiPort(SHARED_PORT);
    return options;
  }

  /** The page of a job that registered with a web UI. */
  static URI pageOf(PipelineResult result) {
    ObservedJob job = ((ArconPipelineResult) result).observedJob();
    return WebUi.pageOf(job)
        .orElseThrow(() -> new AssertionError("job " + job.name() + " is on no web UI"));
  }

  /** {@code /jobs/<id>} -> {@code <id>}. */
  static String idOf(URI page) {
    String path = page.getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  static HttpResponse<String> get(URI uri, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
    if (headers.length > 0) {
      request.headers(headers);
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + uri + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** GETs JSON, failing with the body when the answer is not 200. */
  static JsonNode getJson(URI uri) {
    HttpResponse<String> response = get(uri);
    assertEquals(200, response.statusCode(), () -> "GET " + uri + ": " + response.body());
    assertEquals(
        "application/json; charset=utf-8",
        response.headers().firstValue("Content-Type").orElse(""),
        "content type of " + uri);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("GET " + uri + " is not JSON: " + response.body(), e);
    }
  }
}
