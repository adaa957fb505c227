package io.arcon.benchmarks.webui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the web UI the way its users do while a job runs: every period the job list, every listed
 * job's figures (what an open job page fetches every second) and {@code /metrics} (a Prometheus
 * scrape). Runs on its own daemon thread until closed; a failed request fails the measurement.
 */
final class UiScraper implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final long periodMillis;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final AtomicLong rounds = new AtomicLong();
  private final Thread thread;
  private volatile boolean stopped;
  private volatile Exception failure;

  UiScraper(URI base, long periodMillis) {
    this.base = base;
    this.periodMillis = periodMillis;
    this.thread = new Thread(this::run, "ui-scraper");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!stopped) {
      try {
        JsonNode jobs = JSON.readTree(get("/api/jobs"));
        for (JsonNode job : jobs.path("jobs")) {
          get("/api/jobs/" + job.path("id").asText());
        }
        String metrics = get("/metrics");
        if (!metrics.contains("arcon_")) {
          throw new IOException("/metrics has no arcon_ series:\n" + metrics);
        }
        rounds.incrementAndGet();
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // A job can register between the list and its page; only a repeated failure is one.
        if (failure != null) {
          return;
        }
        failure = e;
      }
    }
  }

  private String get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** Complete scrape rounds so far. */
  long rounds() {
    return rounds.get();
  }

  @Override
  public void close() throws Exception {
    stopped = true;
    thread.interrupt();
    thread.join(10_000);
    if (failure != null && rounds.get() == 0) {
      throw new IllegalStateException("The web UI could not be read at " + base, failure);
    }
  }
}
