package io.arcon.tss.cli;

import io.arcon.tss.cli.StatementSplitter.Piece;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * The interactive {@code tss} shell: statements end with {@code ;} and may span lines; history is
 * kept in a file; TAB completes keywords and the control plane's app, state and TSS names.
 */
final class Shell {
  static final String PROMPT = "tss> ";
  static final String CONTINUATION = "  -> ";

  private final Terminal terminal;
  private final StatementExecutor executor;
  private final CatalogCache catalog;
  private final Path historyFile;
  private final String endpoint;

  Shell(
      Terminal terminal,
      StatementExecutor executor,
      CatalogCache catalog,
      Path historyFile,
      String endpoint) {
    this.terminal = terminal;
    this.executor = executor;
    this.catalog = catalog;
    this.historyFile = historyFile;
    this.endpoint = endpoint;
  }

  /** Reads and runs statements until {@code exit}, {@code quit} or end of input. */
  int run() {
    LineReader reader =
        LineReaderBuilder.builder()
            .terminal(terminal)
            .appName("tss")
            .parser(new StatementLineParser())
            .completer(new TssCompleter(catalog))
            .variable(LineReader.HISTORY_FILE, historyFile)
            .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
            .option(LineReader.Option.CASE_INSENSITIVE, true)
            .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
            .build();
    PrintWriter out = terminal.writer();
    out.println("tss shell on " + endpoint + " — end statements with ';', 'help' for help.");
    out.flush();
    try {
      while (true) {
        String input;
        try {
          input = reader.readLine(PROMPT);
        } catch (UserInterruptException e) {
          continue; // Ctrl-C drops the statement being typed, like psql.
        } catch (EndOfFileException e) {
          break;
        }
        if (StatementLineParser.isShellCommand(input)) {
          String command = input.strip().toLowerCase(Locale.ROOT).replace(";", "").strip();
          if (command.equals("help")) {
            out.println(help());
            out.flush();
            continue;
          }
          break;
        }
        runAll(input, out);
      }
    } finally {
      try {
        reader.getHistory().save();
      } catch (IOException e) {
        terminal.writer().println("warning: could not save history to " + historyFile + ": " + e);
      }
    }
    return 0;
  }

  private void runAll(String input, PrintWriter out) {
    StatementSplitter.Split split = StatementSplitter.split(input);
    List<Piece> statements = split.statements();
    for (Piece statement : statements) {
      try {
        TablePrinter.print(executor.execute(statement), out);
      } catch (RuntimeException e) {
        try {
          ErrorReport.print(e, input, out);
        } catch (RuntimeException unexpected) {
          // A bug must not end the session the user is typing in; -e still fails loudly.
          out.println("error: unexpected failure: " + unexpected);
          out.flush();
        }
        break;
      } finally {
        catalog.invalidate();
      }
    }
  }

  static String help() {
    return String.join(
        "\n",
        "Statements (end each with ';'):",
        "  SHOW APPS;  DESCRIBE APP app;  DROP APP app;",
        "  SHOW TSS;  DESCRIBE TSS name;  DROP TSS name;",
        "  CREATE TSS name AS EXTRACT app.state[, ...] [ON KEY 'k'] AT 'yyyy-MM-dd HH:mm[:ss]'",
        "    [TIME ZONE 'Europe/Stockholm'] [FOR EACH n SECONDS|MINUTES|HOURS|DAYS",
        "    [UNTIL 'time']] [DIFF] [TRANSFORM 'sql'];",
        "  QUERY name [VERSION 'time' [TIME ZONE 'zone'] | LATEST] <DuckDB SELECT>;",
        "    reads one committed version; its states are tables app.state"
            + " (app.\"Transform.state\"),",
        "    a TRANSFORM result is the table transform.",
        "Commands: help, exit, quit (or Ctrl-D). TAB completes keywords and names.");
  }
}
