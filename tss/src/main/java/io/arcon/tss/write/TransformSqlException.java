package io.arcon.tss.write;

/**
 * A TRANSFORM's SQL was refused: it does not parse, is not a single SELECT query, references an
 * unknown table or column, or tried to reach anything but the version's tables. The message carries
 * DuckDB's own explanation (with its line/column pointer where DuckDB gives one).
 */
public class TransformSqlException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TransformSqlException(String message, Throwable cause) {
    super(message, cause);
  }

  public TransformSqlException(String message) {
    super(message);
  }
}
