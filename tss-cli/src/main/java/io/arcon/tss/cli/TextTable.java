package io.arcon.tss.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What the shell prints for a statement: an optional table (columns and rows of cell text) and a
 * one-line message.
 */
record TextTable(List<String> columns, List<List<String>> rows, String message) {
  TextTable {
    columns = List.copyOf(columns);
    rows = rows.stream().map(r -> (List<String>) new ArrayList<>(r)).toList();
    message = message == null ? "" : message;
  }

  static TextTable message(String message) {
    return new TextTable(List.of(), List.of(), message);
  }
}
