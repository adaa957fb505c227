package io.arcon.state.rocksdb;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The JVM heap that rocksdb row caches may grow into beyond their starting budget, shared by every
 * rocksdb table of the JVM (all backends, all pipelines), as Flink shares its managed memory among
 * a TaskManager's RocksDB instances.
 *
 * <p>Why: a table's cache starts small ({@code rocksdb.rowCacheBytes}), so a pipeline with many
 * stateful transforms does not reserve much for tables that stay small. A table whose working set
 * is larger (a counter over a million keys) forgot all of its rows at every overflow and read most
 * of them back from RocksDB; here it doubles its budget instead, as long as the JVM-wide memory has
 * room, and keeps its whole working set in the JVM when that fits. What a table took is given back
 * when its backend closes.
 */
final class RowCacheMemory {
  /**
   * The fraction of the JVM's maximum heap that row caches may take together beyond their start.
   */
  static final int HEAP_DIVISOR = 8;

  private static final RowCacheMemory SHARED =
      new RowCacheMemory(RocksDbOptions.rowCacheMemoryBytes(Runtime.getRuntime().maxMemory()));

  private final long capacityBytes;
  private final AtomicLong reservedBytes = new AtomicLong();

  RowCacheMemory(long capacityBytes) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacityBytes < 0: " + capacityBytes);
    }
    this.capacityBytes = capacityBytes;
  }

  /** The memory of this JVM: 1/{@value #HEAP_DIVISOR} of its maximum heap. */
  static RowCacheMemory shared() {
    return SHARED;
  }

  long capacityBytes() {
    return capacityBytes;
  }

  long reservedBytes() {
    return reservedBytes.get();
  }

  /** Takes {@code bytes} if that many are free; otherwise takes nothing and returns false. */
  boolean tryReserve(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes <= 0: " + bytes);
    }
    while (true) {
      long reserved = reservedBytes.get();
      if (reserved > capacityBytes - bytes) {
        return false;
      }
      if (reservedBytes.compareAndSet(reserved, reserved + bytes)) {
        return true;
      }
    }
  }

  /** Gives back {@code bytes} taken by {@link #tryReserve}. */
  void release(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes < 0: " + bytes);
    }
    long after = reservedBytes.addAndGet(-bytes);
    if (after < 0) {
      reservedBytes.addAndGet(bytes);
      throw new IllegalStateException(
          "Released "
              + bytes
              + " bytes of row cache memory, more than the "
              + (after + bytes)
              + " reserved");
    }
  }
}
