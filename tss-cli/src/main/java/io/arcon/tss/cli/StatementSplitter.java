package io.arcon.tss.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits shell input into statements at each {@code ;} that is not inside a {@code '...'} string, a
 * {@code "..."} quoted identifier (QUERY's SQL may have those) or a {@code --} comment.
 */
final class StatementSplitter {

  /**
   * A complete statement: its text without the terminating {@code ;}, and where it starts in the
   * input (1-based), so that parse errors can point into the whole input.
   */
  record Piece(String text, int line, int column) {
    /** The text preceded by blanks that put it at its original line and column. */
    String positioned() {
      return "\n".repeat(line - 1) + " ".repeat(column - 1) + text;
    }
  }

  /** The statements of {@code input}, plus the unterminated rest (blank when there is none). */
  record Split(List<Piece> statements, Piece rest) {
    boolean complete() {
      return rest.text().isBlank() || isOnlyComments(rest.text());
    }
  }

  private StatementSplitter() {}

  static Split split(String input) {
    List<Piece> statements = new ArrayList<>();
    int start = 0;
    int i = 0;
    int n = input.length();
    while (i < n) {
      char c = input.charAt(i);
      if (c == '\'' || c == '"') {
        i = skipQuoted(input, i, c);
      } else if (c == '-' && i + 1 < n && input.charAt(i + 1) == '-') {
        while (i < n && input.charAt(i) != '\n') {
          i++;
        }
      } else if (c == ';') {
        Piece piece = piece(input, start, i);
        if (!piece.text().isBlank() && !isOnlyComments(piece.text())) {
          statements.add(piece);
        }
        start = ++i;
      } else {
        i++;
      }
    }
    return new Split(statements, piece(input, start, n));
  }

  /** Index after the closing quote; a doubled quote is an escaped quote, not the end. */
  private static int skipQuoted(String input, int open, char quote) {
    int i = open + 1;
    while (i < input.length()) {
      if (input.charAt(i) == quote) {
        if (i + 1 < input.length() && input.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return i;
  }

  /** The trimmed text between {@code from} and {@code to} with the position of its first char. */
  private static Piece piece(String input, int from, int to) {
    int begin = from;
    while (begin < to && Character.isWhitespace(input.charAt(begin))) {
      begin++;
    }
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < begin; i++) {
      if (input.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new Piece(input.substring(begin, to).strip(), line, begin - lineStart + 1);
  }

  static boolean isOnlyComments(String text) {
    return text.lines().map(String::strip).allMatch(l -> l.isEmpty() || l.startsWith("--"));
  }
}
