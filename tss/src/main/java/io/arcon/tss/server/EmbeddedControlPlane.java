package io.arcon.tss.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A control plane a pipeline starts in its own JVM when none listens at its endpoint, so that a
 * user needs no other process; a second pipeline finds it listening and joins it. Its catalog and
 * lake live under the given home ({@code <home>/catalog}, {@code <home>/lake}), as a standalone
 * {@code tss server --home} keeps them, so either can take over the other's home later.
 *
 * <p>Its threads are daemons: it does not keep the JVM alive, and it stops with the JVM or at
 * {@link #close()}.
 */
public final class EmbeddedControlPlane implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedControlPlane.class);

  /** How long a connection attempt may take before the endpoint counts as not listening. */
  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

  /**
   * How long to wait for a control plane that won the race for the home directory to start
   * listening: it has the lock, it is loading its catalog.
   */
  private static final Duration RACE_PATIENCE = Duration.ofSeconds(10);

  /** Whether something accepts TCP connections at an address. */
  interface Probe {
    boolean accepts(String host, int port);
  }

  private final ControlPlaneServer server;
  private final String endpoint;

  private EmbeddedControlPlane(ControlPlaneServer server) {
    this.server = server;
    this.endpoint = ServerConfig.hostPort(server.config().bindHost(), server.port());
  }

  /**
   * Starts a control plane at {@code host:port} unless one already listens there.
   *
   * @param home the control plane's home: catalog under it, lake at {@code home/lake}
   * @param token shared token every call must carry, or null; required for a non-loopback host
   * @return the started control plane, or empty when something already accepts connections at
   *     {@code host:port} — also when another process bound it first while this one was starting
   * @throws IllegalArgumentException if {@code host} is not loopback and there is no token, or the
   *     port is out of range
   * @throws HomeInUseException if a control plane at another endpoint runs on {@code home}
   * @throws UncheckedIOException if the home directory is unusable or the address cannot be bound
   *     for another reason than a control plane listening there
   */
  public static Optional<EmbeddedControlPlane> startIfNoneListening(
      String host, int port, Path home, String token) {
    return startIfNoneListening(
        new ServerConfig(home, null, host, port, token), EmbeddedControlPlane::accepts);
  }

  static Optional<EmbeddedControlPlane> startIfNoneListening(ServerConfig config, Probe probe) {
    String host = config.bindHost();
    int port = config.port();
    String endpoint = ServerConfig.hostPort(host, port);
    if (port != 0 && probe.accepts(host, port)) {
      LOG.debug("a control plane already listens at {}; joining it", endpoint);
      return Optional.empty();
    }
    try {
      EmbeddedControlPlane started =
          new EmbeddedControlPlane(ControlPlaneServer.start(config, true));
      LOG.info(
          "started an embedded TSS control plane at {} (home {}, lake {})",
          started.endpoint(),
          config.home(),
          config.lake());
      return Optional.of(started);
    } catch (HomeInUseException e) {
      // Another process locked the home first. If it is starting on this endpoint, join it.
      boolean sameEndpoint = e.holderEndpoint().isEmpty() || e.holderEndpoint().equals(endpoint);
      if (sameEndpoint && awaitListening(probe, host, port, RACE_PATIENCE)) {
        LOG.debug("another process started the control plane at {} first; joining it", endpoint);
        return Optional.empty();
      }
      throw e;
    } catch (UncheckedIOException e) {
      // The port was bound between the probe and the bind: by a control plane, or something else.
      if (port != 0 && probe.accepts(host, port)) {
        LOG.debug("another process bound {} first; joining it", endpoint);
        return Optional.empty();
      }
      throw e;
    }
  }

  private static boolean awaitListening(Probe probe, String host, int port, Duration patience) {
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      if (port != 0 && probe.accepts(host, port)) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  static boolean accepts(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), (int) PROBE_TIMEOUT.toMillis());
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Where it listens, {@code host:port} (with the real port when started with port 0). */
  public String endpoint() {
    return endpoint;
  }

  /** Its home directory (absolute): the catalog under it, the lake in {@code home/lake}. */
  public Path home() {
    return server.config().home();
  }

  /** The bound port. */
  public int port() {
    return server.port();
  }

  /** Stops listening, ends the app streams and frees the port and the home directory. */
  @Override
  public void close() {
    server.close();
    LOG.info("stopped the embedded TSS control plane at {}", endpoint);
  }
}
