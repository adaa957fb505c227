package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/**
 * Records the writes of one exported state id into its chains (layout: {@link ChainLayout}). The
 * cells of the id call it next to each write to {@code beam_state}, passing the row key they wrote
 * and the length of the cell's address at its start; a write only copies the row key, its stamp and
 * what it did to the end of the instance's {@link ChainWriteBuffer}, with no read, and reaches the
 * row's chain when the buffer is flushed ({@link ChainRecorders#flush}).
 *
 * <p>The chain stamp is the operator's current event time for an exact state and its current input
 * watermark for a watermark-cut one, read at each write.
 *
 * <p>While recording is off ({@link ChainRecorders#stopRecording}) a write records nothing: it only
 * notes its stamp, so that a recording started later knows from which version on the live rows it
 * takes as the chains' base are right.
 */
public final class ChainRecorder {
  private static final byte[] NO_OP = new byte[0];

  private final ExportedState state;
  private final StateTable history;
  private final OrderedBytes keyBuffer;
  private final LongSupplier chainStamp;
  private final ChainWriteBuffer pending;
  private final int index;
  private final Runnable flushAll;

  // Set by ChainRecorders; single-threaded like the operator.
  private boolean recording = true;

  /** The largest stamp of a write while not recording; {@link Long#MIN_VALUE} when none. */
  private long largestUnrecordedStamp = Long.MIN_VALUE;

  /** Bytes of {@code lp(state id)}, the last part of a cell's address. */
  private final int idPartLength;

  ChainRecorder(
      ExportedState state,
      StateTable history,
      OrderedBytes keyBuffer,
      LongSupplier chainStamp,
      ChainWriteBuffer pending,
      int index,
      Runnable flushAll) {
    this.state = state;
    this.history = history;
    this.keyBuffer = keyBuffer;
    this.chainStamp = chainStamp;
    this.pending = pending;
    this.index = index;
    this.flushAll = flushAll;
    this.idPartLength = 4 + state.id().getBytes(StandardCharsets.UTF_8).length;
  }

  public ExportedState state() {
    return state;
  }

  /**
   * Checks, when a cell of this id is bound, that the runtime binds the kind that was exported: the
   * chains of a kind are written (put or append) and decoded by that kind.
   */
  public void requireKind(ExportedState.Kind bound) {
    if (bound != state.kind()) {
      throw new IllegalStateException(
          "State '"
              + state.id()
              + "' was exported as "
              + state.kind()
              + " but the DoFn binds it as "
              + (bound == null ? "a watermark hold" : bound)
              + ": export the StateSpec the DoFn declares for this id");
    }
  }

  /** A put of {@code stored} into the row {@code rowKey} of a put-row kind. */
  public void put(byte[] rowKey, int addressLength, byte[] stored) {
    record(rowKey, addressLength, stored, false);
  }

  /** An append of {@code element} to the list row {@code rowKey}. */
  public void append(byte[] rowKey, int addressLength, byte[] element) {
    record(rowKey, addressLength, element, true);
  }

  /** A delete of the row {@code rowKey} (which need not exist). */
  public void delete(byte[] rowKey, int addressLength) {
    record(rowKey, addressLength, NO_OP, state.kind().listRows());
  }

  private void record(byte[] rowKey, int addressLength, byte[] op, boolean keepAll) {
    long stamp = chainStamp.getAsLong();
    if (!recording) {
      noteUnrecorded(stamp);
      return;
    }
    // A put row's earlier write at the same stamp is superseded by this one (keepAll false).
    pending.add(index, rowKey, addressLength, stamp, op, keepAll);
    if (pending.isFull()) {
      flushAll.run();
    }
  }

  /**
   * A delete of every row of {@code stateTable} under {@code rowPrefix}; call it before deleting
   * them there. It reads the rows, as a clear of a multi-row cell must name each row it ends.
   */
  public void deleteRowsWithPrefix(StateTable stateTable, byte[] rowPrefix, int addressLength) {
    if (!recording) {
      noteUnrecorded(chainStamp.getAsLong());
      return;
    }
    try (CloseableIterator<StateEntry> rows = stateTable.prefixScan(rowPrefix)) {
      deleteAll(rows, addressLength);
    }
  }

  /** A delete of every row of {@code stateTable} in {@code [fromInclusive, toExclusive)}. */
  public void deleteRowsInRange(
      StateTable stateTable, byte[] fromInclusive, byte[] toExclusive, int addressLength) {
    if (!recording) {
      noteUnrecorded(chainStamp.getAsLong());
      return;
    }
    try (CloseableIterator<StateEntry> rows = stateTable.scan(fromInclusive, toExclusive)) {
      deleteAll(rows, addressLength);
    }
  }

  private void deleteAll(CloseableIterator<StateEntry> rows, int addressLength) {
    while (rows.hasNext()) {
      delete(rows.next().key(), addressLength);
    }
  }

  /** The chain stamp a write would get now. */
  long currentStamp() {
    return chainStamp.getAsLong();
  }

  void noteUnrecorded(long stamp) {
    if (stamp > largestUnrecordedStamp) {
      largestUnrecordedStamp = stamp;
    }
  }

  /** Turns recording on or off; turning it on forgets the stamps noted while it was off. */
  void recording(boolean on) {
    recording = on;
    if (on) {
      largestUnrecordedStamp = Long.MIN_VALUE;
    }
  }

  /** The largest stamp of a write while recording was off, {@link Long#MIN_VALUE} when none. */
  long largestUnrecordedStamp() {
    return largestUnrecordedStamp;
  }

  /**
   * Writes a live row of {@code beam_state} ({@code row}, of this state id) as its chain's base:
   * the row's stored bytes as one base entry (put rows) or each stored element as one (list rows).
   */
  void base(StateEntry row, int addressLength) {
    byte[] key = chainKey(row.key(), 0, row.key().length, addressLength, ChainLayout.BASE_STAMP);
    if (state.kind().listRows()) {
      for (byte[] element : row.elements()) {
        history.append(key, ChainLayout.entry(ChainLayout.BASE_STAMP, element));
      }
    } else {
      history.append(key, ChainLayout.entry(ChainLayout.BASE_STAMP, row.value()));
    }
  }

  /**
   * {@code lp(id) lp(key) lp(namespace) lp(suffix) ts(segment)} from a row key {@code lp(key)
   * lp(namespace) lp(id) suffix}: the address's parts moved, no parsing needed since the id's
   * length is known.
   */
  private byte[] chainKey(byte[] bytes, int offset, int length, int addressLength, long segment) {
    int idStart = addressLength - idPartLength;
    int suffixLength = length - addressLength;
    return keyBuffer
        .reset()
        .writeBytes(bytes, offset + idStart, idPartLength)
        .writeBytes(bytes, offset, idStart)
        .writeInt(suffixLength)
        .writeBytes(bytes, offset + addressLength, suffixLength)
        .writeOrderedLong(segment)
        .toByteArray();
  }
}
