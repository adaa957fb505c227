package io.arcon.state.rocksdb;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackendException;
import io.arcon.state.StateEntry;
import java.util.NoSuchElementException;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A bounded scan over one column family. RocksDB bounds the iterator natively (lower/upper bound
 * slices), so it stops at the range end without reading past it. The table writes its cached rows
 * back before opening it. The iterator reads the table as of the moment it was opened (keys added
 * or deleted since are not seen), except that, with the row cache off, a value the memtable
 * overwrote in place since shows its new bytes (see the backend's in-place updates); the caller may
 * write while iterating.
 */
final class RocksDbScan implements CloseableIterator<StateEntry> {
  private final RocksDbStateBackend owner;
  private final ReadOptions readOptions;
  private final Slice lower;
  private final Slice upper;
  private final RocksIterator iterator;
  private boolean closed;

  RocksDbScan(
      RocksDbStateBackend owner,
      RocksDbStateTable table,
      byte[] fromInclusive,
      byte[] toExclusive) {
    this.owner = owner;
    this.readOptions = new ReadOptions();
    this.lower = fromInclusive == null ? null : new Slice(fromInclusive);
    this.upper = toExclusive == null ? null : new Slice(toExclusive);
    if (lower != null) {
      readOptions.setIterateLowerBound(lower);
    }
    if (upper != null) {
      readOptions.setIterateUpperBound(upper);
    }
    this.iterator = owner.db().newIterator(table.handle(), readOptions);
    if (fromInclusive == null) {
      iterator.seekToFirst();
    } else {
      iterator.seek(fromInclusive);
    }
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    if (iterator.isValid()) {
      return true;
    }
    try {
      iterator.status();
    } catch (RocksDBException e) {
      throw new StateBackendException("RocksDB scan failed: " + e.getMessage(), e);
    }
    return false;
  }

  @Override
  public StateEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    StateEntry entry = new StateEntry(iterator.key(), iterator.value());
    iterator.next();
    return entry;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    // The iterator goes before the options and slices it points into.
    iterator.close();
    readOptions.close();
    if (lower != null) {
      lower.close();
    }
    if (upper != null) {
      upper.close();
    }
    owner.scanClosed(this);
  }
}
