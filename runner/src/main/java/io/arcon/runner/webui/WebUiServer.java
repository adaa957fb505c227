package io.arcon.runner.webui;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP server (the JDK's {@link HttpServer}, daemon threads): the jobs list, a page per job and
 * per job's TSS control plane, their JSON API, and Prometheus {@code /metrics}.
 *
 * <pre>
 * /                      jobs list (page)        /api/jobs              jobs (JSON)
 * /jobs/&lt;id&gt;             job page                /api/jobs/&lt;id&gt;         job (JSON)
 * /jobs/&lt;id&gt;/tss         TSS page                /api/jobs/&lt;id&gt;/tss     TSS control plane (JSON)
 * /static/&lt;file&gt;         scripts and styles      /metrics               Prometheus text format
 * </pre>
 */
final class WebUiServer {
  private static final Logger LOG = LoggerFactory.getLogger(WebUiServer.class);

  /** Ports tried from {@code --webUiPort} on before giving up. */
  static final int PORTS_TRIED = 100;

  /** How often running jobs' figures are read (rates and back-pressure are per this interval). */
  static final long SAMPLE_PERIOD_MILLIS = 1_000;

  private static final String SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self';"
          + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final String token;
  private final URI base;
  private final JobRegistry jobs;
  private final PrometheusRegistry prometheus = new PrometheusRegistry();
  private final ExpositionFormats formats = ExpositionFormats.init();

  private WebUiServer(String token, URI base, ExecutorService tssQueries) {
    this.token = token;
    this.base = base;
    this.jobs = new JobRegistry(tssQueries);
    prometheus.register(new JobsCollector(jobs));
  }

  /** Binds {@code settings.address()} on the first free port from {@code settings.port()} on. */
  static WebUiServer start(WebUiSettings settings) {
    HttpServer http = bind(settings.address(), settings.port());
    ExecutorService requests = Executors.newFixedThreadPool(4, daemonThreads("arcon-webui-http"));
    ExecutorService tssQueries = Executors.newCachedThreadPool(daemonThreads("arcon-webui-tss"));
    WebUiServer server = new WebUiServer(settings.token(), baseUri(http.getAddress()), tssQueries);
    http.setExecutor(requests);
    http.createContext("/", server::handle);
    startAsDaemon(http);
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(daemonThreads("arcon-webui-sampler"));
    sampler.scheduleWithFixedDelay(
        server::sampleJobs, SAMPLE_PERIOD_MILLIS, SAMPLE_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    LOG.info("Web UI listens on {}", server.base);
    return server;
  }

  /**
   * Starts {@code http} so that its dispatcher thread is a daemon. The JDK's server creates that
   * thread without saying, so it inherits the daemon flag of the thread that calls {@code start}:
   * called from a job's (non-daemon) thread, it kept the JVM alive after {@code main} returned.
   */
  static void startAsDaemon(HttpServer http) {
    Thread starter = new Thread(http::start, "arcon-webui-start");
    starter.setDaemon(true);
    starter.start();
    try {
      starter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting the web UI", e);
    }
  }

  /**
   * The first port from {@code firstPort} on that {@code address} can bind, trying {@value
   * #PORTS_TRIED}.
   */
  static HttpServer bind(InetAddress address, int firstPort) {
    if (!isOfThisMachine(address)) {
      throw new IllegalArgumentException(
          "--webUiAddress="
              + address.getHostAddress()
              + " is not an address of this machine: give one of its addresses, 127.0.0.1 (this"
              + " machine only) or 0.0.0.0 (every interface)");
    }
    int lastPort = Math.min(65535, firstPort + PORTS_TRIED - 1);
    BindException lastRefusal = null;
    for (int port = firstPort; port <= lastPort; port++) {
      try {
        return HttpServer.create(new InetSocketAddress(address, port), 0);
      } catch (BindException taken) {
        lastRefusal = taken;
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot serve the web UI on " + address.getHostAddress() + ":" + port + ": " + e, e);
      }
    }
    throw new IllegalStateException(
        "The web UI found no free port on "
            + address.getHostAddress()
            + ": ports "
            + firstPort
            + " to "
            + lastPort
            + " are all taken ("
            + lastRefusal.getMessage()
            + "). Give a free port with --webUiPort=<port>, or turn the UI off with --webUi=off.");
  }

  private static boolean isOfThisMachine(InetAddress address) {
    try {
      return address.isAnyLocalAddress()
          || address.isLoopbackAddress()
          || NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return true; // Cannot tell: let the bind say.
    }
  }

  /**
   * {@code http://<addr>:<port>}; a wildcard address as this machine's name, reachable by others.
   */
  private static URI baseUri(InetSocketAddress bound) {
    String host = bound.getAddress().getHostAddress();
    if (bound.getAddress().isAnyLocalAddress()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    }
    try {
      return new URI("http", null, host, bound.getPort(), null, null, null);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("No URI for " + bound, e);
    }
  }

  /** Lists the job and prints its address on stdout. */
  URI register(ObservedJob job) {
    RegisteredJob registered = jobs.add(job);
    URI page = base.resolve("/jobs/" + registered.id());
    String line =
        "Web UI of "
            + job.name()
            + ": "
            + page
            + (token == null ? "" : " (add ?token=<--webUiToken> or send it as a Bearer token)");
    System.out.println(line);
    LOG.info(line);
    return page;
  }

  Optional<URI> pageOf(ObservedJob job) {
    return jobs.find(job).map(r -> base.resolve("/jobs/" + r.id()));
  }

  /** The address the server listens on, e.g. {@code http://127.0.0.1:8081}. */
  URI base() {
    return base;
  }

  private void sampleJobs() {
    try {
      jobs.sampleAll();
    } catch (RuntimeException e) {
      // A failed reading must not stop the sampler (a scheduled task that throws never runs again).
      LOG.warn("Web UI: reading the jobs' figures failed", e);
    }
  }

  // ---- requests ----

  private void handle(HttpExchange exchange) {
    try {
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      // A browser asks for the icon without the token; there is none, and nothing to protect.
      if (!authorized(exchange) && !exchange.getRequestURI().getPath().equals("/favicon.ico")) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"arcon web UI\"");
        sendText(
            exchange,
            401,
            "This web UI requires the token given to the job with --webUiToken: send it as"
                + " 'Authorization: Bearer <token>' or add '?token=<token>' to the address.\n");
        return;
      }
      String method = exchange.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        sendText(exchange, 405, "The web UI only answers GET and HEAD, not " + method + ".\n");
        return;
      }
      route(exchange, exchange.getRequestURI().getPath());
    } catch (IOException e) {
      // Only writing the answer does I/O: the client went away (a closed tab, a scraper's timeout).
      LOG.debug("Web UI: the client of {} went away: {}", exchange.getRequestURI(), e.toString());
    } catch (RuntimeException e) {
      LOG.warn("Web UI: {} failed", exchange.getRequestURI(), e);
      try {
        sendText(exchange, 500, "The web UI failed to answer: " + e + "\n");
      } catch (IOException | RuntimeException ignored) {
        // The response was already started; the client sees a cut-off answer.
      }
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, String path) throws IOException {
    String[] parts = path.replaceAll("^/+|/+$", "").split("/+");
    if (path.equals("/") || path.isEmpty()) {
      sendPage(exchange, "index");
    } else if (path.equals("/favicon.ico")) {
      send(exchange, 204, "image/x-icon", new byte[0]); // Browsers ask; the UI has none.
    } else if (parts[0].equals("metrics") && parts.length == 1) {
      sendMetrics(exchange);
    } else if (parts[0].equals("static") && parts.length == 2) {
      Optional<Pages.Resource> file = Pages.staticFile(parts[1]);
      if (file.isPresent()) {
        send(exchange, 200, file.get().contentType(), file.get().body());
      } else {
        sendText(exchange, 404, "No file " + parts[1] + " in the web UI.\n");
      }
    } else if (parts[0].equals("jobs") && parts.length == 1) {
      String query = exchange.getRequestURI().getRawQuery();
      exchange.getResponseHeaders().set("Location", query == null ? "/" : "/?" + query);
      sendText(exchange, 302, "The jobs are listed at /\n");
    } else if (parts[0].equals("jobs") && (parts.length == 2 || isTss(parts, 2))) {
      Optional<RegisteredJob> job = job(exchange, parts[1]);
      if (job.isPresent() && parts.length == 3 && job.get().tss() == null) {
        sendText(exchange, 404, "Job " + parts[1] + " does not use TSS (--tss=off).\n");
      } else if (job.isPresent()) {
        sendPage(exchange, parts.length == 3 ? "tss" : "job");
      }
    } else if (parts[0].equals("api") && parts.length == 2 && parts[1].equals("jobs")) {
      sendJson(exchange, JobJson.list(jobs.all()));
    } else if (parts[0].equals("api")
        && parts.length >= 3
        && parts[1].equals("jobs")
        && (parts.length == 3 || isTss(parts, 3))) {
      Optional<RegisteredJob> job = job(exchange, parts[2]);
      if (job.isPresent() && parts.length == 4) {
        if (job.get().tss() == null) {
          sendText(exchange, 404, "Job " + parts[2] + " does not use TSS (--tss=off).\n");
        } else {
          sendJson(exchange, job.get().tss().query());
        }
      } else if (job.isPresent()) {
        sendJson(exchange, JobJson.detail(job.get()));
      }
    } else {
      sendText(
          exchange,
          404,
          "Nothing at "
              + path
              + ". The web UI serves /, /jobs/<id>, /jobs/<id>/tss, /api/jobs, /api/jobs/<id>,"
              + " /api/jobs/<id>/tss and /metrics.\n");
    }
  }

  private static boolean isTss(String[] parts, int length) {
    return parts.length == length + 1 && parts[length].equals("tss");
  }

  /** The job with that id; answers 404 itself when there is none. */
  private Optional<RegisteredJob> job(HttpExchange exchange, String id) throws IOException {
    Optional<RegisteredJob> job = jobs.get(id);
    if (job.isEmpty()) {
      sendText(
          exchange,
          404,
          "No job "
              + id
              + " on this web UI (it shows running jobs and the "
              + JobRegistry.ENDED_KEPT
              + " newest ended ones). See / for the jobs it shows.\n");
    }
    return job;
  }

  private boolean authorized(HttpExchange exchange) {
    if (token == null) {
      return true;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return sameToken(header.substring(7).trim());
    }
    return sameToken(queryToken(exchange.getRequestURI().getRawQuery()));
  }

  /** Compares in constant time, so response times do not reveal how much of a guess was right. */
  private boolean sameToken(String given) {
    return given != null
        && MessageDigest.isEqual(
            given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
  }

  private static String queryToken(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equals("token")) {
        return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  private void sendPage(HttpExchange exchange, String page) throws IOException {
    exchange.getResponseHeaders().set("Content-Security-Policy", SECURITY_POLICY);
    Pages.Resource html = Pages.page(page, token == null ? null : queryToken(exchange));
    send(exchange, 200, html.contentType(), html.body());
  }

  /** The token as this request gave it in the query, to pass on to what the page loads. */
  private static String queryToken(HttpExchange exchange) {
    return queryToken(exchange.getRequestURI().getRawQuery());
  }

  private void sendMetrics(HttpExchange exchange) throws IOException {
    ExpositionFormatWriter writer =
        formats.findWriter(exchange.getRequestHeaders().getFirst("Accept"));
    if (!writer.isAvailable()) {
      // Asked for protobuf first: this build has the text formats only.
      writer = formats.getPrometheusTextFormatWriter();
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    writer.write(body, prometheus.scrape());
    send(exchange, 200, writer.getContentType(), body.toByteArray());
  }

  private static void sendJson(HttpExchange exchange, JsonNode json) throws IOException {
    send(exchange, 200, "application/json; charset=utf-8", JobJson.MAPPER.writeValueAsBytes(json));
  }

  private static void sendText(HttpExchange exchange, int status, String text) throws IOException {
    send(exchange, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static ThreadFactory daemonThreads(String name) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread t = new Thread(runnable, name + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
