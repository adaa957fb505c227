package io.arcon.tss.cli;

import java.io.PrintWriter;
import java.util.List;

/**
 * Prints a {@link TextTable} with aligned columns:
 *
 * <pre>
 * name  | connected | watermark
 * ------+-----------+---------------------
 * app1  | true      | 2026-12-02T13:00:00Z
 * (1 row)
 * </pre>
 *
 * Widths count code points, so non-ASCII names stay aligned; line breaks inside a cell are shown as
 * {@code \n} so that a row stays one line.
 */
final class TablePrinter {
  private TablePrinter() {}

  static void print(TextTable table, PrintWriter out) {
    if (!table.columns().isEmpty()) {
      int[] widths = new int[table.columns().size()];
      for (int c = 0; c < widths.length; c++) {
        widths[c] = width(table.columns().get(c));
      }
      for (List<String> row : table.rows()) {
        for (int c = 0; c < widths.length && c < row.size(); c++) {
          widths[c] = Math.max(widths[c], width(cell(row.get(c))));
        }
      }
      out.println(line(table.columns(), widths));
      StringBuilder rule = new StringBuilder();
      for (int c = 0; c < widths.length; c++) {
        rule.append(c == 0 ? "" : "-+-").append("-".repeat(widths[c]));
      }
      out.println(rule);
      for (List<String> row : table.rows()) {
        out.println(line(row, widths));
      }
      int n = table.rows().size();
      out.println("(" + n + (n == 1 ? " row)" : " rows)"));
    }
    if (!table.message().isEmpty()) {
      out.println(table.message());
    }
    out.flush();
  }

  private static String line(List<String> cells, int[] widths) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      String text = c < cells.size() ? cell(cells.get(c)) : "";
      b.append(c == 0 ? "" : " | ").append(text);
      if (c < widths.length - 1) {
        b.append(" ".repeat(widths[c] - width(text)));
      }
    }
    return b.toString();
  }

  private static String cell(String value) {
    return value == null ? "NULL" : value.replace("\r", "\\r").replace("\n", "\\n");
  }

  private static int width(String s) {
    return s.codePointCount(0, s.length());
  }
}
