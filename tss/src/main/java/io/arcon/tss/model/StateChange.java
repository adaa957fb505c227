package io.arcon.tss.model;

import java.util.Objects;

/**
 * One row of a DIFF version: what happened to the cell {@code (row.key(), row.window())} since the
 * previous version. For {@link ChangeOp#DELETE} the row is a tombstone whose value is {@code null}.
 */
public record StateChange(ChangeOp op, StateRow row) {
  public StateChange {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(row, "row");
    if (op == ChangeOp.DELETE && row.value() != null) {
      throw new IllegalArgumentException(
          "A DELETE change is a tombstone; its row value must be null");
    }
  }
}
