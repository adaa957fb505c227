package io.arcon.tss.client;

import java.util.List;

/**
 * What a statement returned, ready to print: column names, rows of cell strings, and a one-line
 * summary (e.g. "TSS t created"). A statement with nothing to list has no columns.
 */
public record ResultTable(List<String> columns, List<List<String>> rows, String message) {
  public ResultTable {
    columns = List.copyOf(columns);
    rows = rows.stream().map(List::copyOf).toList();
    message = message == null ? "" : message;
  }

  static ResultTable fromProto(io.arcon.tss.proto.ResultTable table) {
    return new ResultTable(
        table.getColumnsList(),
        table.getRowsList().stream()
            .map(r -> (List<String>) List.copyOf(r.getCellsList()))
            .toList(),
        table.getMessage());
  }
}
