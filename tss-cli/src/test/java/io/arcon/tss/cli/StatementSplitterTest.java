package io.arcon.tss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.tss.cli.StatementSplitter.Piece;
import io.arcon.tss.cli.StatementSplitter.Split;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {
  @Test
  void splitsOnSemicolonsOutsideQuotesAndComments() {
    Split split =
        StatementSplitter.split(
            "SHOW APPS;\n  CREATE TSS t AS EXTRACT a.s ON KEY 'a;''b' -- x;y\n AT 'z';"
                + " QUERY t SELECT \"a;b\" FROM a.s; DESCRIBE");
    assertEquals(
        List.of(
            new Piece("SHOW APPS", 1, 1),
            new Piece("CREATE TSS t AS EXTRACT a.s ON KEY 'a;''b' -- x;y\n AT 'z'", 2, 3),
            new Piece("QUERY t SELECT \"a;b\" FROM a.s", 3, 10)),
        split.statements());
    assertEquals(new Piece("DESCRIBE", 3, 41), split.rest());
    assertFalse(split.complete());
  }

  @Test
  void blankAndCommentOnlyInputIsComplete() {
    assertTrue(StatementSplitter.split("  \n").complete());
    assertTrue(StatementSplitter.split("SHOW TSS; -- done\n").complete());
    assertEquals(List.of(), StatementSplitter.split(";; -- c\n;").statements());
    assertFalse(StatementSplitter.split("SHOW TSS -- ;").complete());
    assertFalse(StatementSplitter.split("DROP TSS 'x;").complete());
  }

  @Test
  void positionedTextKeepsLineAndColumn() {
    assertEquals("\n\n   DROP TSS x", new Piece("DROP TSS x", 3, 4).positioned());
  }
}
