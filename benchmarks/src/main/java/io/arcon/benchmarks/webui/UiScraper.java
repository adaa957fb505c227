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
  private volatile Exception lastFailure;

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
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // The JVM's server starts with the first job that has the UI; until then it refuses.
        lastFailure = e;
      }
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
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

  /** Stops reading. */
  @Override
  public void close() throws Exception {
    stopped = true;
    thread.interrupt();
    thread.join(10_000);
  }

  /** Fails when no read succeeded although several were due (the UI was not served). */
  void requireReads(double runSeconds) {
    // A round's first requests open a connection and warm the client up: give it a while.
    if (rounds.get() == 0 && runSeconds * 1000 > Math.max(3 * periodMillis, 2_000)) {
      throw new IllegalStateException(
          "The web UI at " + base + " could not be read during a " + runSeconds + " s run",
          lastFailure);
    }
  }
}
