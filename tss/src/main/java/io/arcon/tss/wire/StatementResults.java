package io.arcon.tss.wire;

import io.arcon.tss.lang.StatementResult;
import io.arcon.tss.proto.ResultRow;
import io.arcon.tss.proto.ResultTable;
import java.util.List;

/** A {@link StatementResult} <-> its protobuf form {@link ResultTable}. */
public final class StatementResults {
  private StatementResults() {}

  public static ResultTable toProto(StatementResult result) {
    ResultTable.Builder table =
        ResultTable.newBuilder().addAllColumns(result.columns()).setMessage(result.message());
    for (List<String> row : result.rows()) {
      table.addRows(ResultRow.newBuilder().addAllCells(row));
    }
    return table.build();
  }

  public static StatementResult fromProto(ResultTable table) {
    return new StatementResult(
        table.getColumnsList(),
        table.getRowsList().stream().map(r -> (List<String>) r.getCellsList()).toList(),
        table.getMessage());
  }
}
