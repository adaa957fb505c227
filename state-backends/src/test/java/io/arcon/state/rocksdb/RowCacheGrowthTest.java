package io.arcon.state.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.StateTable;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;

/** A table's row cache grows into the JVM-wide {@link RowCacheMemory} instead of forgetting. */
class RowCacheGrowthTest {
  @TempDir Path tmp;

  private static final int ROWS = 2000;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  private static byte[] value(int i) {
    byte[] v = new byte[100];
    ByteBuffer.wrap(v).putInt(i).putInt(~i);
    return v;
  }

  private static RocksDbOptions options(long startBytes, long maxBytes) {
    return RocksDbOptions.parse(
        Map.of(
            RocksDbOptions.ROW_CACHE_BYTES, Long.toString(startBytes),
            RocksDbOptions.ROW_CACHE_MAX_BYTES, Long.toString(maxBytes)));
  }

  /** Rows RocksDB's memtables received: only write-backs put rows there. */
  private static long rowsInRocksDb(RocksDbStateBackend backend, StateTable table)
      throws RocksDBException {
    return backend
        .db()
        .getLongProperty(
            ((RocksDbStateTable) table).handle(), "rocksdb.num-entries-active-mem-table");
  }

  private static void writeAndCheck(StateTable table) {
    for (int i = 0; i < ROWS; i++) {
      table.put(key(i), value(i));
    }
    for (int i = 0; i < ROWS; i++) {
      assertArrayEquals(value(i), table.get(key(i)), "row " + i);
    }
  }

  @Test
  void aMaximumBelowTheStartIsRefusedAndAnEqualOneAccepted() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> options(1000, 10));
    assertTrue(
        e.getMessage()
            .startsWith(
                "State backend option rocksdb.rowCacheMaxBytes (10) is below"
                    + " rocksdb.rowCacheBytes (1000)"),
        e.getMessage());
    assertEquals(1000, options(1000, 1000).rowCacheMaxBytes());
    assertEquals(0, options(0, 0).rowCacheMaxBytes());
  }

  @Test
  void aCacheWithRoomGrowsAndKeepsEveryRowUntilAScan() throws Exception {
    RowCacheMemory memory = new RowCacheMemory(4L << 20);
    try (RocksDbStateBackend backend =
        new RocksDbStateBackend(tmp.resolve("a"), options(4096, 1L << 20), memory)) {
      StateTable table = backend.table("t");
      writeAndCheck(table);
      // ~340 KB of rows through a cache that started at 4 KiB: it doubled instead of writing back.
      assertEquals(0, rowsInRocksDb(backend, table));
      long granted = memory.reservedBytes();
      assertTrue(granted >= 256 << 10 && granted < 1L << 20, "granted " + granted);
      // A scan needs RocksDB to hold every write: the dirty rows go, the budget stays.
      try (var rows = table.scan(key(0), key(ROWS))) {
        int n = 0;
        while (rows.hasNext()) {
          assertArrayEquals(value(n), rows.next().value());
          n++;
        }
        assertEquals(ROWS, n);
      }
      assertEquals(ROWS, rowsInRocksDb(backend, table));
      assertEquals(granted, memory.reservedBytes());
    }
    assertEquals(0, memory.reservedBytes(), "closing the backend gives its grant back");
  }

  @Test
  void aCacheStopsGrowingAtItsCeilingAndThenWritesBack() throws Exception {
    RowCacheMemory memory = new RowCacheMemory(4L << 20);
    try (RocksDbStateBackend backend =
        new RocksDbStateBackend(tmp.resolve("b"), options(4096, 32 << 10), memory)) {
      StateTable table = backend.table("t");
      writeAndCheck(table);
      assertTrue(rowsInRocksDb(backend, table) > 0, "a full cache at its ceiling writes back");
      assertEquals((32 << 10) - 4096, memory.reservedBytes());
    }
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void tablesShareTheMemoryAndAFullMemoryMeansWriteBacks() throws Exception {
    RowCacheMemory memory = new RowCacheMemory(64 << 10);
    try (RocksDbStateBackend first =
            new RocksDbStateBackend(tmp.resolve("c1"), options(4096, 1L << 20), memory);
        RocksDbStateBackend second =
            new RocksDbStateBackend(tmp.resolve("c2"), options(4096, 1L << 20), memory)) {
      StateTable a = first.table("t");
      writeAndCheck(a);
      long takenByFirst = memory.reservedBytes();
      assertTrue(takenByFirst > 0 && takenByFirst <= 64 << 10, "taken " + takenByFirst);
      assertTrue(rowsInRocksDb(first, a) > 0, "more rows than the whole memory holds");
      StateTable b = second.table("t");
      writeAndCheck(b);
      assertTrue(rowsInRocksDb(second, b) > 0);
      long afterBoth = memory.reservedBytes();
      assertTrue(afterBoth <= 64 << 10);
      first.close();
      assertEquals(afterBoth - takenByFirst, memory.reservedBytes());
      // The second backend grows into what the first gave back.
      long before = memory.reservedBytes();
      for (int i = ROWS; i < 3 * ROWS; i++) {
        b.put(key(i), value(i));
      }
      assertTrue(memory.reservedBytes() > before, "the freed memory is used again");
    }
    assertEquals(0, memory.reservedBytes());
  }

  @Test
  void aLargeWriteBackReachesRocksDbInBoundedBatches() throws Exception {
    int rows = 6000;
    int valueBytes = 1000;
    try (RocksDbStateBackend backend =
        new RocksDbStateBackend(
            tmp.resolve("large"), options(32L << 20, 32L << 20), new RowCacheMemory(0))) {
      StateTable table = backend.table("t");
      for (int i = 0; i < rows; i++) {
        byte[] v = new byte[valueBytes];
        ByteBuffer.wrap(v).putInt(i);
        table.put(key(i), v);
      }
      assertEquals(0, rowsInRocksDb(backend, table), "all ~6 MB held by the cache");
      // The scan writes the ~6 MB back; one batch of it would have grown to 8 MiB.
      try (var stored = table.scan(key(0), key(rows))) {
        int n = 0;
        while (stored.hasNext()) {
          assertEquals(n, ByteBuffer.wrap(stored.next().value()).getInt(), "row " + n);
          n++;
        }
        assertEquals(rows, n);
      }
      assertEquals(rows, rowsInRocksDb(backend, table));
      int capacity = backend.writeBackBatch().capacityBytes();
      assertTrue(
          capacity <= RocksDbStateTable.WRITE_BACK_BATCH_BYTES,
          "the write-back batch grew to " + capacity + " bytes");
    }
  }

  @Test
  void theMemoryRefusesMoreThanItHasAndAnOverRelease() {
    RowCacheMemory memory = new RowCacheMemory(100);
    assertTrue(memory.tryReserve(60));
    assertFalse(memory.tryReserve(41));
    assertTrue(memory.tryReserve(40));
    assertFalse(memory.tryReserve(1));
    memory.release(100);
    assertEquals(0, memory.reservedBytes());
    assertThrows(IllegalStateException.class, () -> memory.release(1));
    assertEquals(0, memory.reservedBytes());
    assertThrows(IllegalArgumentException.class, () -> new RowCacheMemory(-1));
  }

  @Test
  void theSharedMemoryIsAnEighthOfTheHeap() {
    assertEquals(
        Runtime.getRuntime().maxMemory() / RowCacheMemory.HEAP_DIVISOR,
        RowCacheMemory.shared().capacityBytes());
  }
}
