package io.arcon.state.rocksdb;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.ListFraming;
import io.arcon.state.StateBackendException;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.List;
import java.util.Objects;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;

/** A rocksdb table: one column family. The handle is re-bound when the backend restores. */
final class RocksDbStateTable implements StateTable {
  private final RocksDbStateBackend owner;
  private final String name;
  private ColumnFamilyHandle handle;

  RocksDbStateTable(RocksDbStateBackend owner, String name, ColumnFamilyHandle handle) {
    this.owner = owner;
    this.name = name;
    this.handle = handle;
  }

  void rebind(ColumnFamilyHandle handle) {
    this.handle = handle;
  }

  ColumnFamilyHandle handle() {
    return handle;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return owner.get(handle, key);
    } catch (RocksDBException e) {
      throw failure("get", e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Objects.requireNonNull(value, "value");
    try {
      owner.put(handle, key, value);
    } catch (RocksDBException e) {
      throw failure("put", e);
    }
  }

  @Override
  public void delete(byte[] key) {
    try {
      owner.db().delete(handle, owner.writeOptions(), key);
    } catch (RocksDBException e) {
      throw failure("delete", e);
    }
  }

  @Override
  public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
    Objects.requireNonNull(fromInclusive, "fromInclusive");
    Objects.requireNonNull(toExclusive, "toExclusive");
    if (KeyBytes.compare(fromInclusive, toExclusive) >= 0) {
      return; // an inverted range is empty by the contract
    }
    deleteKeys(fromInclusive, toExclusive);
  }

  @Override
  public void deletePrefix(byte[] prefix) {
    // An all-0xff (or empty) prefix has no end key: its keys run to the end of the table.
    deleteKeys(prefix, KeyBytes.prefixEnd(prefix));
  }

  /**
   * Deletes every key in {@code [fromInclusive, toExclusive)} ({@code toExclusive} null: to the
   * table's end) one by one, never with a range tombstone: with in-place memtable updates (see the
   * backend) a put of a key that a range tombstone covers would overwrite the covered entry in
   * place, keep its older sequence number and stay deleted. A point tombstone is a newer entry of
   * the key, so the put after it adds a visible one instead. The scan reads the table as of its
   * start, so it walks every key that was there.
   */
  private void deleteKeys(byte[] fromInclusive, byte[] toExclusive) {
    try (CloseableIterator<StateEntry> rows = scan(fromInclusive, toExclusive)) {
      while (rows.hasNext()) {
        delete(rows.next().key());
      }
    }
  }

  @Override
  public void append(byte[] key, byte[] element) {
    Objects.requireNonNull(element, "element");
    try {
      // The merge operator concatenates with an empty delimiter, so the stored value is exactly
      // the ListFraming frames in append order and an append never reads the list.
      owner.merge(handle, key, ListFraming.frame(element));
    } catch (RocksDBException e) {
      throw failure("append", e);
    }
  }

  /** One merge whose operand is the elements' frames in order: what their merges would add. */
  @Override
  public void appendAll(byte[] key, List<byte[]> elements) {
    if (elements.isEmpty()) {
      return;
    }
    try {
      owner.merge(handle, key, ListFraming.frameAll(elements));
    } catch (RocksDBException e) {
      throw failure("append", e);
    }
  }

  @Override
  public List<byte[]> getList(byte[] key) {
    return ListFraming.decode(get(key));
  }

  @Override
  public CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive) {
    return owner.openScan(this, fromInclusive, toExclusive);
  }

  @Override
  public long approximateSizeBytes() {
    try {
      return owner.db().getLongProperty(handle, "rocksdb.estimate-live-data-size")
          + owner.db().getLongProperty(handle, "rocksdb.cur-size-all-mem-tables");
    } catch (RocksDBException e) {
      throw failure("approximateSizeBytes", e);
    }
  }

  private StateBackendException failure(String operation, RocksDBException e) {
    return new StateBackendException(
        "RocksDB " + operation + " on table '" + name + "' failed: " + e.getMessage(), e);
  }
}
