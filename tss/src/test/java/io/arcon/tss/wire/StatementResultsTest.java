package io.arcon.tss.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.ResultTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementResultsTest {

  @Test
  void aResultSurvivesItsProtobufForm() {
    StatementResult result =
        new StatementResult(
            List.of("app", "connected"),
            List.of(List.of("a", "yes"), List.of("b", "no")),
            "2 apps");
    ResultTable table = StatementResults.toProto(result);
    assertEquals(List.of("app", "connected"), table.getColumnsList());
    assertEquals(List.of("b", "no"), table.getRows(1).getCellsList());
    assertEquals("2 apps", table.getMessage());
    assertEquals(result, StatementResults.fromProto(table));
  }

  @Test
  void aMessageOnlyResultHasNoColumns() {
    StatementResult dropped = StatementResult.message("TSS t dropped");
    assertEquals(dropped, StatementResults.fromProto(StatementResults.toProto(dropped)));
    assertEquals(0, StatementResults.toProto(dropped).getColumnsCount());
  }
}
