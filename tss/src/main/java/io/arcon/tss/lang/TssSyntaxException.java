package io.arcon.tss.lang;

/**
 * A statement that cannot be parsed or is meaningless (e.g. UNTIL before AT), with the position of
 * the offending token.
 *
 * <p>Lines and columns are 1-based and count characters (a tab is one column), so that they match
 * what an editor shows. The message has the form {@code line 1:17: unexpected 'FROM' — expected
 * AT}.
 */
public class TssSyntaxException extends RuntimeException {
  private final int line;
  private final int column;
  private final String offendingToken;
  private final String expected;

  /**
   * @param problem what is wrong, e.g. {@code unexpected 'FROM'}
   * @param line 1-based line of the offending token
   * @param column 1-based column of the offending token
   * @param offendingToken the offending token's text ({@code <EOF>} at the end of input)
   * @param expected what would have been accepted, readable, e.g. {@code ',', ON or AT}
   */
  public TssSyntaxException(
      String problem, int line, int column, String offendingToken, String expected) {
    super("line " + line + ":" + column + ": " + problem + " — expected " + expected);
    this.line = line;
    this.column = column;
    this.offendingToken = offendingToken;
    this.expected = expected;
  }

  /** 1-based line of the offending token. */
  public int line() {
    return line;
  }

  /** 1-based column of the offending token. */
  public int column() {
    return column;
  }

  /** The offending token's text, {@code <EOF>} when the statement ended too early. */
  public String offendingToken() {
    return offendingToken;
  }

  /** What would have been accepted at that position, in words. */
  public String expected() {
    return expected;
  }
}
