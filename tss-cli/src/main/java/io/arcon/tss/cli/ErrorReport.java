package io.arcon.tss.cli;

import io.arcon.tss.client.TssClientException;
import io.arcon.tss.lang.TssSyntaxException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** How the CLI reports a failed statement, and with which exit code. */
final class ErrorReport {
  /** A malformed statement (or a usage error, as picocli reports those). */
  static final int SYNTAX = 2;

  /** The statement was well-formed but could not be run. */
  static final int FAILED = 1;

  private ErrorReport() {}

  /**
   * Prints {@code error: <message>}; for a syntax error also the offending line of {@code input}
   * with a caret under the offending token.
   *
   * @return the exit code for this failure
   */
  static int print(RuntimeException e, String input, PrintWriter err) {
    if (e instanceof TssSyntaxException syntax) {
      err.println("error: " + syntax.getMessage());
      List<String> lines = input.lines().toList();
      if (syntax.line() <= lines.size()) {
        String line = lines.get(syntax.line() - 1);
        err.println("  " + line);
        err.println("  " + " ".repeat(Math.min(syntax.column() - 1, line.length())) + "^");
      }
      err.flush();
      return SYNTAX;
    }
    if (e instanceof TssClientException
        || e instanceof IllegalArgumentException
        || e instanceof UncheckedIOException) {
      err.println("error: " + e.getMessage());
      err.flush();
      return FAILED;
    }
    throw e;
  }
}
