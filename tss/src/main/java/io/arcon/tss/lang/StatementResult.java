package io.arcon.tss.lang;

import java.util.List;

/**
 * What a statement returned, ready to print: column names, rows of cell strings, and a one-line
 * summary (e.g. "TSS t created"). A statement with nothing to list has no columns.
 */
public record StatementResult(List<String> columns, List<List<String>> rows, String message) {
  public StatementResult {
    columns = List.copyOf(columns);
    rows = rows.stream().map(List::copyOf).toList();
    message = message == null ? "" : message;
  }

  /** A result that only says something. */
  public static StatementResult message(String message) {
    return new StatementResult(List.of(), List.of(), message);
  }
}
