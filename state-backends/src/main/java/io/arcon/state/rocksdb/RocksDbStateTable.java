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
import org.rocksdb.WriteBatch;

/**
 * A rocksdb table: one column family, behind a {@link RocksDbRowCache} of its recent point reads
 * and writes (unless the cache is configured off). Whatever reads RocksDB directly (scans, list
 * reads, appends, flushes and snapshots) first writes the dirty rows back, so it sees every write.
 * The handle is re-bound when the backend restores.
 */
final class RocksDbStateTable implements StateTable {
  private final RocksDbStateBackend owner;
  private final String name;
  private final RocksDbRowCache cache;
  private final long rowCacheMaxBytes;
  private final RowCacheMemory memory;

  /** What the cache's budget took from {@link #memory} beyond its start. */
  private long grantedBytes;

  private ColumnFamilyHandle handle;

  RocksDbStateTable(
      RocksDbStateBackend owner,
      String name,
      ColumnFamilyHandle handle,
      RocksDbOptions options,
      RowCacheMemory memory) {
    this.owner = owner;
    this.name = name;
    this.handle = handle;
    this.cache = options.rowCacheBytes() > 0 ? new RocksDbRowCache(options.rowCacheBytes()) : null;
    this.rowCacheMaxBytes = options.rowCacheMaxBytes();
    this.memory = memory;
  }

  /** After a restore: the cached rows are the replaced content's, so they go unwritten. */
  void rebind(ColumnFamilyHandle handle) {
    this.handle = handle;
    if (cache != null) {
      cache.clear();
    }
  }

  /**
   * The most bytes of rows a write-back hands RocksDB in one batch. Why: a grown cache holds up to
   * {@code rocksdb.rowCacheMaxBytes} of dirty rows, and one batch of all of them (with the array it
   * doubles from and the copy RocksDB's constructor takes) needed about three times that on the
   * heap at once: a pipeline whose state was twice its 256 MiB heap ran out of memory during a
   * write-back. A write-back is not a commit (RocksDB runs without a WAL; checkpoints are what
   * survive), so it may reach RocksDB in several batches.
   */
  static final int WRITE_BACK_BATCH_BYTES = 4 << 20;

  /** Writes the cached writes RocksDB has not seen into it, in key order, in bounded batches. */
  void writeBack() {
    if (cache == null || !cache.hasDirtyRows()) {
      return;
    }
    SerializedWriteBatch rows = owner.writeBackBatch().reset(handle);
    try {
      cache.writeBack(
          new RocksDbRowCache.DirtyRows() {
            @Override
            public void put(byte[] key, byte[] value) throws RocksDBException {
              makeRoom(rows, key.length + value.length);
              rows.put(key, value);
            }

            @Override
            public void delete(byte[] key) throws RocksDBException {
              makeRoom(rows, key.length);
              rows.delete(key);
            }
          });
      write(rows);
    } catch (RocksDBException e) {
      throw failure("write-back", e);
    }
  }

  /** Writes the batch so far when a row of {@code rowBytes} would take it past its bound. */
  private void makeRoom(SerializedWriteBatch rows, int rowBytes) throws RocksDBException {
    if (rows.count() > 0
        && rows.sizeBytes() + SerializedWriteBatch.RECORD_OVERHEAD_BYTES + rowBytes
            > WRITE_BACK_BATCH_BYTES) {
      write(rows);
      rows.reset(handle);
    }
  }

  private void write(SerializedWriteBatch rows) throws RocksDBException {
    if (rows.count() == 0) {
      return;
    }
    try (WriteBatch batch = new WriteBatch(rows.contents())) {
      owner.db().write(owner.writeOptions(), batch);
    }
  }

  /**
   * Once the cache holds more than its budget: a doubled budget while the JVM's row cache memory
   * has room, else everything written back, then forgotten.
   */
  private void evictIfFull() {
    if (cache.overBudget() && !growCache()) {
      writeBack();
      cache.clear();
    }
  }

  private boolean growCache() {
    long budget = cache.budgetBytes();
    long raised = Math.min(rowCacheMaxBytes, budget * 2);
    if (raised <= budget || !memory.tryReserve(raised - budget)) {
      return false;
    }
    grantedBytes += raised - budget;
    cache.raiseBudget(raised);
    return true;
  }

  /** The backend closes: the cache's rows are dropped and its grown budget given back. */
  void releaseCache() {
    if (cache != null) {
      cache.clear();
    }
    if (grantedBytes > 0) {
      memory.release(grantedBytes);
      grantedBytes = 0;
    }
  }

  /**
   * Before an operation RocksDB performs on the stored row itself (a merge, a list read): the row's
   * cached write goes to RocksDB first, and the cache stops answering for the key.
   */
  private void writeThrough(byte[] key) throws RocksDBException {
    if (cache != null) {
      cache.writeThrough(key, directWrites);
    }
  }

  /** Writes straight into RocksDB, for {@link #writeThrough}. */
  private final RocksDbRowCache.DirtyRows directWrites =
      new RocksDbRowCache.DirtyRows() {
        @Override
        public void put(byte[] key, byte[] value) throws RocksDBException {
          owner.put(handle, key, value);
        }

        @Override
        public void delete(byte[] key) throws RocksDBException {
          owner.db().delete(handle, owner.writeOptions(), key);
        }
      };

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
      if (cache == null) {
        return owner.get(handle, key);
      }
      int slot = cache.find(key);
      if (cache.answers(slot)) {
        return cache.value(slot);
      }
      byte[] value = owner.get(handle, key);
      cache.recordRead(slot, key, value);
      evictIfFull();
      return value;
    } catch (RocksDBException e) {
      throw failure("get", e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Objects.requireNonNull(value, "value");
    if (cache != null) {
      cache.put(key, value);
      evictIfFull();
      return;
    }
    try {
      owner.put(handle, key, value);
    } catch (RocksDBException e) {
      throw failure("put", e);
    }
  }

  @Override
  public void delete(byte[] key) {
    if (cache != null) {
      cache.delete(key);
      evictIfFull();
      return;
    }
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
      writeThrough(key);
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
      writeThrough(key);
      owner.merge(handle, key, ListFraming.frameAll(elements));
    } catch (RocksDBException e) {
      throw failure("append", e);
    }
  }

  @Override
  public List<byte[]> getList(byte[] key) {
    try {
      writeThrough(key);
      return ListFraming.decode(owner.get(handle, key));
    } catch (RocksDBException e) {
      throw failure("getList", e);
    }
  }

  @Override
  public CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive) {
    writeBack();
    return owner.openScan(this, fromInclusive, toExclusive);
  }

  @Override
  public long approximateSizeBytes() {
    try {
      return owner.db().getLongProperty(handle, "rocksdb.estimate-live-data-size")
          + owner.db().getLongProperty(handle, "rocksdb.cur-size-all-mem-tables")
          + (cache == null ? 0 : cache.bytes());
    } catch (RocksDBException e) {
      throw failure("approximateSizeBytes", e);
    }
  }

  private StateBackendException failure(String operation, RocksDBException e) {
    return new StateBackendException(
        "RocksDB " + operation + " on table '" + name + "' failed: " + e.getMessage(), e);
  }
}
