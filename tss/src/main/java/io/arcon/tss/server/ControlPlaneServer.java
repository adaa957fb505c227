package io.arcon.tss.server;

import io.arcon.tss.TssDefaults;
import io.arcon.tss.lake.LakeLayout;
import io.arcon.tss.proto.ServerInfo;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TSS control plane: a gRPC server over a {@link ControlPlane} whose catalog lives in the home
 * directory. Start with {@link #start(ServerConfig)}, or from the command line with {@link
 * #main(String[])}.
 */
public final class ControlPlaneServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneServer.class);

  private final ServerConfig config;
  private final ControlPlane plane;
  private final Server server;
  private final HomeLock homeLock;

  private ControlPlaneServer(
      ServerConfig config, ControlPlane plane, Server server, HomeLock homeLock) {
    this.config = config;
    this.plane = plane;
    this.server = server;
    this.homeLock = homeLock;
  }

  /**
   * Locks the home directory, loads the catalog from it and starts listening; only then finishes
   * the commits a restart interrupted.
   *
   * @throws IllegalArgumentException if the bind address is not loopback and there is no token
   * @throws HomeInUseException if another control plane runs on the same home directory
   * @throws UncheckedIOException if the port is taken or the home directory is unusable
   */
  public static ControlPlaneServer start(ServerConfig config) {
    return start(config, false);
  }

  /**
   * {@link #start(ServerConfig)}; {@code embedded}: it runs inside an app's JVM (see {@link
   * EmbeddedControlPlane}), which its apps are told when they register.
   */
  static ControlPlaneServer start(ServerConfig config, boolean embedded) {
    config.checkBindIsSafe();
    HomeLock homeLock =
        HomeLock.acquire(config.home(), ServerConfig.hostPort(config.bindHost(), config.port()));
    try {
      LakeLayout lake = new LakeLayout(config.lake());
      CatalogStore store = new CatalogStore(config.home());
      ControlPlane plane = new ControlPlane(store, lake, new VersionCommitter(lake));
      if (embedded) {
        plane.embeddedIn(config.home());
      }
      ServerInfo info =
          ServerInfo.newBuilder().setLake(lake.root()).setHome(config.home().toString()).build();
      TssControlService service = new TssControlService(plane, info);
      NettyServerBuilder builder =
          NettyServerBuilder.forAddress(new InetSocketAddress(config.bindHost(), config.port()))
              // Agents keep their stream open for the app's lifetime; detect dead peers.
              .keepAliveTime(30, TimeUnit.SECONDS)
              .permitKeepAliveTime(10, TimeUnit.SECONDS)
              .permitKeepAliveWithoutCalls(true);
      if (config.token() != null) {
        builder.addService(
            ServerInterceptors.intercept(service, new BearerAuthInterceptor(config.token())));
      } else {
        builder.addService(service);
      }
      Server server = builder.build();
      try {
        server.start();
      } catch (IOException e) {
        plane.close();
        throw new UncheckedIOException(
            "cannot listen on "
                + ServerConfig.hostPort(config.bindHost(), config.port())
                + " ("
                + e.getMessage()
                + "); is another control plane running? pick another --port",
            e);
      }
      homeLock.recordEndpoint(ServerConfig.hostPort(config.bindHost(), server.getPort()));
      plane.resume();
      LOG.info(
          "TSS control plane listening on {}, home {}, lake {}",
          ServerConfig.hostPort(config.bindHost(), server.getPort()),
          config.home(),
          lake.root());
      return new ControlPlaneServer(config, plane, server, homeLock);
    } catch (RuntimeException e) {
      homeLock.close();
      throw e;
    }
  }

  /** The bound port (useful with port 0). */
  public int port() {
    return server.getPort();
  }

  public ServerConfig config() {
    return config;
  }

  ControlPlane plane() {
    return plane;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /** Stops listening, lets a running commit finish, ends the app streams, frees the home. */
  @Override
  public void close() {
    server.shutdown();
    plane.close();
    try {
      if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    } finally {
      homeLock.close();
    }
  }

  /**
   * {@code ControlPlaneServer [--home DIR] [--lake DIR|URI] [--bind HOST] [--port N] [--token
   * SECRET]}; home defaults to {@code ~/.arcon/tss}. The token may also come from the environment
   * variable {@code ARCON_TSS_TOKEN}, which keeps it out of process listings.
   */
  public static void main(String[] args) throws InterruptedException {
    ServerConfig config;
    try {
      config = parseArgs(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(
          "usage: ControlPlaneServer [--home DIR] [--lake DIR|URI] [--bind HOST] [--port N]"
              + " [--token SECRET]");
      System.exit(2);
      return;
    }
    ControlPlaneServer server;
    try {
      server = start(config);
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "tss-shutdown"));
    System.out.println(
        "TSS control plane on "
            + config.bindHost()
            + ":"
            + server.port()
            + " (home "
            + config.home()
            + ")");
    server.awaitTermination();
  }

  static ServerConfig parseArgs(String[] args) {
    Path home = Path.of(System.getProperty("user.home"), ".arcon", "tss");
    String lake = null;
    String bind = TssDefaults.DEFAULT_HOST;
    int port = TssDefaults.PORT;
    String token = System.getenv("ARCON_TSS_TOKEN");
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + option + " needs a value");
      }
      String value = args[++i];
      switch (option) {
        case "--home" -> home = Path.of(value);
        case "--lake" -> lake = value;
        case "--bind" -> bind = value;
        case "--port" -> {
          try {
            port = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port needs a number, got '" + value + "'");
          }
        }
        case "--token" -> token = value;
        default -> throw new IllegalArgumentException("unknown option " + option);
      }
    }
    return new ServerConfig(home, lake, bind, port, token);
  }
}
