package io.arcon.tss.cli;

import io.arcon.tss.TssDefaults;
import io.arcon.tss.server.ControlPlaneServer;
import io.arcon.tss.server.ServerConfig;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tss server}: a standalone control plane in the foreground, until killed. */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = "Start a standalone TSS control plane and block until stopped (Ctrl-C).")
final class ServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--home",
      required = true,
      paramLabel = "DIR",
      description = "Directory for TSS definitions and the version catalog.")
  Path home;

  @Option(
      names = "--lake",
      paramLabel = "DIR|URI",
      description = "Where versions are written (any Hadoop file system). Default: <home>/lake.")
  String lake;

  @Option(
      names = "--bind",
      defaultValue = TssDefaults.DEFAULT_HOST,
      paramLabel = "HOST",
      description = "Address to listen on (default: ${DEFAULT-VALUE}); non-loopback needs --token.")
  String bind;

  @Option(
      names = "--port",
      defaultValue = "" + TssDefaults.PORT,
      paramLabel = "N",
      description = "TCP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(
      names = "--token",
      defaultValue = "${env:ARCON_TSS_TOKEN}",
      paramLabel = "SECRET",
      description = "Shared token every client must send (default: $ARCON_TSS_TOKEN).")
  String token;

  /** Completed with the running server, so that a test can stop it. */
  final CompletableFuture<ControlPlaneServer> started = new CompletableFuture<>();

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ControlPlaneServer server;
    try {
      server = ControlPlaneServer.start(new ServerConfig(home, lake, bind, port, token));
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      started.completeExceptionally(e);
      return ErrorReport.FAILED;
    }
    Thread hook = new Thread(server::close, "tss-server-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println(
        "TSS control plane listening on "
            + new Endpoint(bind, server.port())
            + " (home "
            + server.config().home()
            + ", lake "
            + server.config().lake()
            + ")");
    out.flush();
    started.complete(server);
    server.awaitTermination();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down and the hook is running: nothing to undo.
    }
    return 0;
  }
}
