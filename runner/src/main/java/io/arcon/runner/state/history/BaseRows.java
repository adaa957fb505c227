package io.arcon.runner.state.history;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import java.util.List;

/**
 * The base rows of the history table in key order, as a {@link RowCursor} (keys without their
 * {@link ChainLayout#BASE_STAMP} segment). Closing it closes the scan.
 */
final class BaseRows implements RowCursor, AutoCloseable {
  private final CloseableIterator<StateEntry> scan;
  private StateEntry row;

  BaseRows(CloseableIterator<StateEntry> scan) {
    this.scan = scan;
    next();
  }

  @Override
  public boolean valid() {
    return row != null;
  }

  @Override
  public byte[] keyBytes() {
    return row.key();
  }

  @Override
  public int keyOffset() {
    return 0;
  }

  @Override
  public int keyLength() {
    return ChainLayout.rowPrefixLength(row.key());
  }

  /** The current row's entries (stamped {@link ChainLayout#BASE_STAMP}). */
  List<byte[]> entries() {
    return row.elements();
  }

  @Override
  public void next() {
    row = scan.hasNext() ? scan.next() : null;
    if (row != null && ChainLayout.segment(row.key()) != ChainLayout.BASE_STAMP) {
      throw new IllegalStateException(
          "Table "
              + ChainLayout.HISTORY_TABLE
              + " holds a chain segment that is not a base: it was written by an earlier version of"
              + " ArconRunner, which kept each row's writes in segments there; dispose of the"
              + " backend's state (or restore a checkpoint of this version) to start over");
    }
  }

  @Override
  public void close() {
    scan.close();
  }
}
