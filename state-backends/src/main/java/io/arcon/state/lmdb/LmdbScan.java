package io.arcon.state.lmdb;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;

/**
 * A scan read in chunks: each chunk opens a cursor, copies a bounded number of entries out and
 * closes it, then the next chunk seeks past the last key. No LMDB cursor or transaction lives
 * between calls, so the caller may write while iterating and the map may be resized in between. A
 * chunk sees the table as it is when the chunk is read (writes made during the scan may show up in
 * later chunks).
 */
final class LmdbScan implements CloseableIterator<StateEntry> {
  private final LmdbStateBackend owner;
  private final LmdbStateTable table;
  private final byte[] from;
  private final byte[] toExclusive;
  private final ArrayDeque<StateEntry> chunk = new ArrayDeque<>();
  private byte[] lastKey;
  private boolean exhausted;

  LmdbScan(LmdbStateBackend owner, LmdbStateTable table, byte[] from, byte[] toExclusive) {
    this.owner = owner;
    this.table = table;
    this.from = from;
    this.toExclusive = toExclusive;
  }

  @Override
  public boolean hasNext() {
    if (!chunk.isEmpty()) {
      return true;
    }
    if (exhausted) {
      return false;
    }
    boolean more =
        lastKey == null
            ? owner.readChunk(table, from, false, toExclusive, chunk)
            : owner.readChunk(table, lastKey, true, toExclusive, chunk);
    if (!chunk.isEmpty()) {
      lastKey = chunk.peekLast().key();
    }
    exhausted = !more;
    return !chunk.isEmpty();
  }

  @Override
  public StateEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return chunk.poll();
  }

  @Override
  public void close() {
    exhausted = true;
    chunk.clear();
  }
}
