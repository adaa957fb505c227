package io.arcon.tss.server;

import io.arcon.tss.TssDefaults;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How a control plane runs.
 *
 * @param home directory holding the TSS definitions and the version catalog
 * @param lake where versions are written: a local directory or any Hadoop file-system URI (e.g.
 *     {@code s3a://bucket/lake}); null = {@code <home>/lake}
 * @param bindHost address to listen on; loopback by default
 * @param port TCP port; 0 picks a free one (see {@link ControlPlaneServer#port()})
 * @param token shared secret every call must carry as {@code authorization: Bearer <token>}; null
 *     or empty = no authentication, which is only allowed on a loopback address
 */
public record ServerConfig(Path home, String lake, String bindHost, int port, String token) {
  public ServerConfig {
    Objects.requireNonNull(home, "home directory");
    home = home.toAbsolutePath().normalize();
    if (lake == null || lake.isBlank()) {
      lake = home.resolve("lake").toString();
    }
    if (bindHost == null || bindHost.isBlank()) {
      bindHost = TssDefaults.DEFAULT_HOST;
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "port " + port + " is out of range 0..65535 (0 picks a free port)");
    }
    if (token != null && token.isEmpty()) {
      token = null;
    }
  }

  /** Loopback, default port, lake under home, no token. */
  public static ServerConfig defaults(Path home) {
    return new ServerConfig(home, null, TssDefaults.DEFAULT_HOST, TssDefaults.PORT, null);
  }

  public ServerConfig withPort(int newPort) {
    return new ServerConfig(home, lake, bindHost, newPort, token);
  }

  /** {@code host:port}, an IPv6 address in brackets. */
  static String hostPort(String host, int port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /**
   * Refuses to expose an unauthenticated control plane: anything but a loopback address needs a
   * token, because whoever reaches the port can create TSS that write files and run SQL.
   */
  void checkBindIsSafe() {
    InetAddress address;
    try {
      address = InetAddress.getByName(bindHost);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "cannot resolve bind address '" + bindHost + "'; give an IP address or a known host", e);
    }
    if (!address.isLoopbackAddress() && token == null) {
      throw new IllegalArgumentException(
          "refusing to bind the TSS control plane to non-loopback address "
              + bindHost
              + " without a token; give it a token (--token for tss server, --tssToken for a"
              + " pipeline's embedded control plane; clients then send it) or bind "
              + TssDefaults.DEFAULT_HOST);
    }
  }
}
