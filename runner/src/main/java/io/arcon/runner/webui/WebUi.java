package io.arcon.runner.webui;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The web UI and Prometheus endpoint of the jobs of this JVM. The first job registered starts the
 * server; later jobs with the same settings join it, so one address shows every job of the JVM.
 *
 * <p>A job whose settings ask for another address, first port or token gets a server of its own: a
 * job that requires a token must never be listed on a server that does not ask for it.
 */
public final class WebUi {
  /** Servers by the settings that started them; they live (daemon threads) as long as the JVM. */
  private static final Map<ServerKey, WebUiServer> SERVERS = new HashMap<>();

  private WebUi() {}

  private record ServerKey(String address, int port, String token) {
    static ServerKey of(WebUiSettings settings) {
      return new ServerKey(settings.address().getHostAddress(), settings.port(), settings.token());
    }
  }

  /**
   * Shows {@code job} on the web UI of {@code settings}, starting the server if this is the first
   * job with these settings, and prints the job's address on stdout.
   *
   * @return the job's page, e.g. {@code http://127.0.0.1:8081/jobs/wordcount}
   * @throws IllegalStateException when no port of the tried range is free (the message says which
   *     ports were tried and what to do)
   */
  public static URI register(WebUiSettings settings, ObservedJob job) {
    if (!settings.enabled()) {
      throw new IllegalArgumentException(
          "--webUi is off for job " + job.name() + ": there is no web UI to register it with");
    }
    WebUiServer server;
    synchronized (SERVERS) {
      server = SERVERS.get(ServerKey.of(settings));
      if (server == null) {
        server = WebUiServer.start(settings);
        SERVERS.put(ServerKey.of(settings), server);
      }
    }
    return server.register(job);
  }

  /** The page of a registered job, empty when it is on no server (any more). */
  static Optional<URI> pageOf(ObservedJob job) {
    synchronized (SERVERS) {
      for (WebUiServer server : SERVERS.values()) {
        Optional<URI> page = server.pageOf(job);
        if (page.isPresent()) {
          return page;
        }
      }
    }
    return Optional.empty();
  }
}
