package io.arcon.tss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TablePrinterTest {
  private static String print(TextTable table) {
    StringWriter s = new StringWriter();
    TablePrinter.print(table, new PrintWriter(s));
    return s.toString().replace(System.lineSeparator(), "\n");
  }

  @Test
  void alignsColumnsByCodePoints() {
    TextTable table =
        new TextTable(
            List.of("name", "n"),
            List.of(List.of("åsa", "1"), Arrays.asList("bob\nsmith", null)),
            "2 apps");
    assertEquals(
        "name       | n\n"
            + "-----------+-----\n"
            + "åsa        | 1\n"
            + "bob\\nsmith | NULL\n"
            + "(2 rows)\n"
            + "2 apps\n",
        print(table));
  }

  @Test
  void messageOnlyAndEmptyTables() {
    assertEquals("TSS t dropped\n", print(TextTable.message("TSS t dropped")));
    assertEquals("app\n---\n(0 rows)\n", print(new TextTable(List.of("app"), List.of(), "")));
    assertEquals(
        "a | b\n--+--\nx | \n(1 row)\n",
        print(new TextTable(List.of("a", "b"), List.of(List.of("x")), null)));
  }
}
