package io.arcon.tss.cli;

import io.arcon.tss.cli.StatementSplitter.Piece;
import io.arcon.tss.cli.StatementSplitter.Split;
import io.arcon.tss.client.TssClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code tss} command: an interactive shell on the TSS control plane, one-shot statements with
 * {@code -e}, and {@code tss server} to run a standalone control plane.
 */
@Command(
    name = "tss",
    mixinStandardHelpOptions = true,
    version = "tss 0.1.0",
    description = {
      "Work with the Temporal Stream State of running pipelines.",
      "Without -e, starts an interactive shell (history in ~/.tss_history, TAB completion)."
    },
    footer = {
      "",
      "Statements end with ';'. 'help' in the shell lists them.",
      "QUERY reads a committed version with DuckDB:",
      "  QUERY t [VERSION 'time' | LATEST] SELECT ... FROM app.state",
      "Exit codes: 0 ok, 1 a statement failed, 2 malformed statement or command line."
    },
    subcommands = {ServerCommand.class})
public final class TssCli implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"-e", "--execute"},
      paramLabel = "STATEMENTS",
      description = "Run these ';'-separated statements and exit.")
  String execute;

  @Option(
      names = "--endpoint",
      defaultValue = Endpoint.DEFAULT,
      converter = Endpoint.Converter.class,
      paramLabel = "HOST:PORT",
      description = "Control plane address (default: ${DEFAULT-VALUE}).")
  Endpoint endpoint;

  @Option(
      names = "--token",
      defaultValue = "${env:ARCON_TSS_TOKEN}",
      paramLabel = "SECRET",
      description = "Shared token of the control plane (default: $ARCON_TSS_TOKEN).")
  String token;

  @Option(
      names = "--lake",
      paramLabel = "DIR",
      description = "Local lake directory for QUERY (default: the control plane's lake).")
  String lake;

  @Option(
      names = "--history-file",
      defaultValue = "${sys:user.home}/.tss_history",
      paramLabel = "FILE",
      description = "Shell history (default: ${DEFAULT-VALUE}).")
  Path historyFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new TssCli()).execute(args));
  }

  /**
   * gRPC's own logger, held so that its level sticks (java.util.logging keeps loggers weakly): the
   * CLI reports a failed call in one line, so gRPC's WARNING with a stack trace for the same
   * failure (a name that does not resolve) is noise.
   */
  private static final java.util.logging.Logger GRPC_LOG =
      java.util.logging.Logger.getLogger("io.grpc");

  @Override
  public Integer call() {
    GRPC_LOG.setLevel(java.util.logging.Level.SEVERE);
    try (TssClient client = TssClient.connect(endpoint.host(), endpoint.port(), token)) {
      StatementExecutor executor = new StatementExecutor(client, lake);
      if (execute != null) {
        return runScript(executor, execute);
      }
      try (Terminal terminal = TerminalBuilder.builder().name("tss").system(true).build()) {
        return new Shell(
                terminal, executor, new CatalogCache(client), historyFile(), endpoint.toString())
            .run();
      }
    } catch (IOException e) {
      return ErrorReport.print(
          new UncheckedIOException("cannot open the terminal: " + e.getMessage(), e),
          "",
          spec.commandLine().getErr());
    } catch (RuntimeException e) {
      return ErrorReport.print(e, "", spec.commandLine().getErr());
    }
  }

  /** The history file, with its directory created: a custom --history-file may be anywhere. */
  private Path historyFile() throws IOException {
    Path parent = historyFile.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return historyFile;
  }

  /** Runs every statement of {@code script} in order; stops at the first failure. */
  private int runScript(StatementExecutor executor, String script) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Split split = StatementSplitter.split(script);
    List<Piece> statements = new ArrayList<>(split.statements());
    if (!split.complete()) {
      statements.add(split.rest()); // The last statement of -e may omit its ';'.
    }
    if (statements.isEmpty()) {
      err.println("error: -e has no statement; e.g. tss -e \"SHOW APPS;\"");
      err.flush();
      return ErrorReport.SYNTAX;
    }
    for (Piece statement : statements) {
      try {
        TablePrinter.print(executor.execute(statement), out);
      } catch (RuntimeException e) {
        return ErrorReport.print(e, script, err);
      }
    }
    return 0;
  }
}
