package io.arcon.state.rocksdb;

import io.arcon.state.OptionValues;
import java.util.List;
import java.util.Map;

/**
 * Tuning of the rocksdb engine, from {@link io.arcon.state.StateBackendConfig#options()}.
 *
 * @param blockCacheBytes {@code rocksdb.blockCacheBytes}: LRU block cache shared by the tables of
 *     one backend (default 64 MiB)
 * @param writeBufferBytes {@code rocksdb.writeBufferBytes}: memtable size per table (default 8
 *     MiB): an insert walks the memtable's skiplist, whose nodes are random cache misses once it
 *     outgrows the CPU caches; at 32 MiB that walk was over half of a random update's cost
 * @param maxWriteBufferNumber {@code rocksdb.maxWriteBufferNumber}: memtables per table before
 *     writes stall (default 6); up to 4 full ones, but always two fewer than this, are merged into
 *     one L0 file per flush
 * @param rowCacheBytes {@code rocksdb.rowCacheBytes}: write-back cache of recently read and written
 *     rows per table, in the JVM heap: the budget it starts with (default 8 MiB; 0 turns it off and
 *     RocksDB updates values in place in its memtable instead)
 * @param rowCacheMaxBytes {@code rocksdb.rowCacheMaxBytes}: how far a table's cache may grow when
 *     it passes its budget (default 1 GiB): it doubles its budget while the row cache memory of the
 *     JVM ({@link RowCacheMemory}, 1/8 of the maximum heap, shared by all rocksdb tables) has room;
 *     otherwise its writes go to RocksDB in sorted batches and it starts empty. Equal to {@code
 *     rowCacheBytes} disables the growth; below it is refused.
 */
public record RocksDbOptions(
    long blockCacheBytes,
    long writeBufferBytes,
    int maxWriteBufferNumber,
    long rowCacheBytes,
    long rowCacheMaxBytes) {
  public static final String BLOCK_CACHE_BYTES = "rocksdb.blockCacheBytes";
  public static final String WRITE_BUFFER_BYTES = "rocksdb.writeBufferBytes";
  public static final String MAX_WRITE_BUFFER_NUMBER = "rocksdb.maxWriteBufferNumber";
  public static final String ROW_CACHE_BYTES = "rocksdb.rowCacheBytes";
  public static final String ROW_CACHE_MAX_BYTES = "rocksdb.rowCacheMaxBytes";

  /** Every key this engine reads. */
  public static final List<String> KEYS =
      List.of(
          BLOCK_CACHE_BYTES,
          WRITE_BUFFER_BYTES,
          MAX_WRITE_BUFFER_NUMBER,
          ROW_CACHE_BYTES,
          ROW_CACHE_MAX_BYTES);

  /**
   * The JVM heap that the rocksdb row caches of a JVM with {@code maxHeapBytes} of maximum heap may
   * grow into together (see {@link RowCacheMemory}).
   */
  public static long rowCacheMemoryBytes(long maxHeapBytes) {
    return maxHeapBytes / RowCacheMemory.HEAP_DIVISOR;
  }

  public static RocksDbOptions defaults() {
    return parse(Map.of());
  }

  /**
   * Reads this engine's keys; keys of other engines are ignored (the registry checks them).
   *
   * @throws IllegalArgumentException naming the key for a value out of range, or a {@code
   *     rowCacheMaxBytes} below {@code rowCacheBytes}
   */
  public static RocksDbOptions parse(Map<String, String> options) {
    long rowCacheBytes = OptionValues.longInRange(options, ROW_CACHE_BYTES, 8L << 20, 0, 1L << 36);
    long rowCacheMaxBytes =
        OptionValues.longInRange(options, ROW_CACHE_MAX_BYTES, 1L << 30, 0, 1L << 40);
    if (rowCacheMaxBytes < rowCacheBytes) {
      throw new IllegalArgumentException(
          "State backend option "
              + ROW_CACHE_MAX_BYTES
              + " ("
              + rowCacheMaxBytes
              + (options.containsKey(ROW_CACHE_MAX_BYTES) ? "" : ", its default")
              + ") is below "
              + ROW_CACHE_BYTES
              + " ("
              + rowCacheBytes
              + (options.containsKey(ROW_CACHE_BYTES) ? "" : ", its default")
              + "): a table's row cache starts at "
              + ROW_CACHE_BYTES
              + " and may grow up to "
              + ROW_CACHE_MAX_BYTES
              + ". Give "
              + ROW_CACHE_MAX_BYTES
              + " at least "
              + rowCacheBytes
              + " (equal keeps every row cache at its start size), or lower "
              + ROW_CACHE_BYTES
              + ".");
    }
    return new RocksDbOptions(
        OptionValues.longInRange(options, BLOCK_CACHE_BYTES, 64L << 20, 1L << 20, 1L << 40),
        OptionValues.longInRange(options, WRITE_BUFFER_BYTES, 8L << 20, 64L << 10, 1L << 34),
        OptionValues.intInRange(options, MAX_WRITE_BUFFER_NUMBER, 6, 2, 64),
        rowCacheBytes,
        rowCacheMaxBytes);
  }
}
