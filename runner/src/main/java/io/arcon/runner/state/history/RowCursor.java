package io.arcon.runner.state.history;

/**
 * Rows of chains in key order, one source of a {@link RowMerge}: a {@link ChainRun.Cursor} or the
 * base rows of the history table ({@link BaseRows}). Keys are chain keys without their segment.
 */
interface RowCursor {
  boolean valid();

  /** The array that holds the current row's key. */
  byte[] keyBytes();

  int keyOffset();

  int keyLength();

  void next();
}
