package io.arcon.tss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.cli.CliTestSupport.Run;
import io.arcon.tss.client.TssClient;
import io.arcon.tss.server.ControlPlaneServer;
import io.arcon.tss.server.ServerConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServerCommandTest {
  @TempDir Path home;

  @Test
  void servesUntilClosed() throws Exception {
    CommandLine cli = new CommandLine(new TssCli());
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    ServerCommand command = cli.getSubcommands().get("server").getCommand();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () -> cli.execute("server", "--home", home.toString(), "--port", "0"));
    ControlPlaneServer server = command.started.get(60, TimeUnit.SECONDS);
    try (TssClient client = TssClient.connect("127.0.0.1", server.port(), null)) {
      assertEquals(0, client.showApps().size());
      assertEquals(
          home.resolve("lake").toUri().toString().replaceAll("/$", ""),
          client.serverInfo().getLake());
    }
    assertTrue(
        out.toString().startsWith("TSS control plane listening on 127.0.0.1:" + server.port()),
        out.toString());
    server.close();
    assertEquals(0, exit.get(60, TimeUnit.SECONDS));
  }

  @Test
  void refusesANonLoopbackBindWithoutToken() {
    Run r =
        CliTestSupport.run("server", "--home", home.toString(), "--bind", "0.0.0.0", "--port", "0");
    assertEquals(1, r.exitCode());
    assertTrue(
        r.err().startsWith("error: refusing to bind the TSS control plane to non-loopback"),
        r.err());
  }

  @Test
  void refusesAHomeAnotherControlPlaneRuns() {
    try (ControlPlaneServer running =
        ControlPlaneServer.start(new ServerConfig(home, null, "127.0.0.1", 0, null))) {
      Run r = CliTestSupport.run("server", "--home", home.toString(), "--port", "0");
      assertEquals(1, r.exitCode());
      assertTrue(
          r.err()
              .startsWith(
                  "error: the TSS home "
                      + home.toAbsolutePath()
                      + " is in use by another control plane (127.0.0.1:"
                      + running.port()),
          r.err());
    }
  }

  @Test
  void homeIsRequired() {
    Run r = CliTestSupport.run("server");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().startsWith("Missing required option: '--home=DIR'"), r.err());
  }
}
