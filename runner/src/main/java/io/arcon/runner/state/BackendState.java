package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.Arrays;
import org.apache.beam.sdk.coders.Coder;

/**
 * Common part of every Beam state cell stored through the SPI: the table and the cell's address
 * ({@code [key][namespace][state id]}, see {@link BackendStateInternals}). A cell is bound to the
 * key that was current when it was obtained, so a {@code ReadableState} kept across {@code setKey}
 * still reads its own key. Cells hold no cached data: every read goes to the backend, so a {@code
 * restore} of the backend is visible at once.
 *
 * <p>A cell of an exported state id has a {@link ChainRecorder} ({@link #history}, else null) and
 * reports each write to it right after writing {@link #table}.
 */
abstract class BackendState {
  /**
   * Separates a cell's own row ({@code address}) from its element rows ({@code address+0x01+..}).
   */
  static final byte ELEMENT_MARKER = 0x01;

  final BackendStateInternals<?> internals;
  final StateTable table;
  final byte[] address;

  /** Records this cell's writes in its version chains; null when the state id is not exported. */
  final ChainRecorder history;

  BackendState(
      BackendStateInternals<?> internals, StateTable table, byte[] address, ChainRecorder history) {
    this.internals = internals;
    this.table = table;
    this.address = address;
    this.history = history;
  }

  /**
   * Deletes every row of this cell (its own row and element rows), recording each in the history
   * first when the cell has one.
   */
  final void deleteAllRows() {
    if (history != null) {
      history.deleteRowsWithPrefix(table, address, address.length);
    }
    table.deletePrefix(address);
  }

  /** {@code address + 0x01}: the prefix of all element rows of this cell. */
  static byte[] elementPrefix(byte[] address) {
    byte[] prefix = Arrays.copyOf(address, address.length + 1);
    prefix[address.length] = ELEMENT_MARKER;
    return prefix;
  }

  /** Whether any row of {@code table} starts with {@code prefix}. */
  static boolean anyWithPrefix(StateTable table, byte[] prefix) {
    try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
      return it.hasNext();
    }
  }

  /**
   * Stores {@code value} stamped with the current event time as the plain row {@code rowKey} of
   * this cell, and records the write in the history when the cell has one. Without a history the
   * row is encoded into the coding's buffer and the table copies it where it keeps it (in place on
   * heap), so a write makes no array.
   */
  final <T> void putStamped(byte[] rowKey, Coder<T> coder, T value) {
    if (history == null) {
      OrderedBytes stored = coding().stampedInBuffer(now(), coder, value);
      table.putCopyOf(rowKey, stored.buffer(), stored.length());
      return;
    }
    byte[] stored = coding().stamped(now(), coder, value);
    table.put(rowKey, stored);
    history.put(rowKey, address.length, stored);
  }

  final StateCoding coding() {
    return internals.coding();
  }

  final long now() {
    return internals.eventTimeMillis();
  }

  @Override
  public final boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    BackendState that = (BackendState) o;
    return internals == that.internals
        && table.name().equals(that.table.name())
        && Arrays.equals(address, that.address);
  }

  @Override
  public final int hashCode() {
    return Arrays.hashCode(address);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "@" + table.name();
  }
}
