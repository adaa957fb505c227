package io.arcon.tss.model;

import java.util.Locale;

/** The kind of change a DIFF row records; written lower-case in the {@code op} column. */
public enum ChangeOp {
  INSERT,
  UPDATE,
  DELETE;

  /**
   * The value written in the {@code op} column: {@code insert}, {@code update} or {@code delete}.
   */
  public String columnValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
