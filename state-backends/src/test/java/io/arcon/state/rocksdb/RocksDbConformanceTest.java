package io.arcon.state.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.KillChild;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackendConformanceTest;
import io.arcon.state.StateBackends;
import io.arcon.state.StateTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RocksDbConformanceTest extends StateBackendConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(StateBackendConfig.of("rocksdb", directory));
  }

  /**
   * A rocksdb backend whose tables' row caches start at {@code startBytes} and grow to {@code
   * maxBytes}.
   */
  static StateBackend openWithRowCache(Path directory, long startBytes, long maxBytes) {
    return StateBackends.open(
        new StateBackendConfig(
            "rocksdb",
            directory,
            Map.of(
                RocksDbOptions.ROW_CACHE_BYTES, Long.toString(startBytes),
                RocksDbOptions.ROW_CACHE_MAX_BYTES, Long.toString(maxBytes))));
  }

  @Override
  protected String engine() {
    return "rocksdb";
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  /**
   * Writes go without a WAL: after a kill, what was not flushed (and not pushed out by a full
   * memtable) is gone. The child's unflushed writes are far below one memtable.
   */
  @Override
  protected void assertUnflushedAfterKill(StateTable values) {
    for (int i = 0; i < KillChild.UNFLUSHED; i++) {
      assertNull(values.get(KillChild.key("unflushed", i)));
    }
  }

  /**
   * Point reads and writes go through reused direct buffers (256-byte key, 4 KiB value buffers that
   * grow): keys and values of every size around and past those, in any order, must read back
   * exactly, and a small read after a big one must not see leftover bytes.
   */
  @Test
  void keysAndValuesOfAnySizeRoundTripThroughTheReusedBuffers() {
    StateTable t = backend.table("sizes");
    int[] sizes = {0, 1, 255, 256, 257, 4095, 4096, 4097, 10_000, 70_000, 3, 1 << 20, 5};
    java.util.Random random = new java.util.Random(11);
    for (int round = 0; round < 2; round++) {
      for (int keySize : sizes) {
        for (int valueSize : sizes) {
          byte[] key = new byte[keySize + 1];
          random.nextBytes(key);
          key[0] = (byte) round;
          byte[] value = new byte[valueSize];
          random.nextBytes(value);
          t.put(key, value);
          org.junit.jupiter.api.Assertions.assertArrayEquals(value, t.get(key));
          t.delete(key);
          assertNull(t.get(key));
          t.append(key, value);
          assertEquals(1, t.getList(key).size());
          org.junit.jupiter.api.Assertions.assertArrayEquals(value, t.getList(key).get(0));
          t.append(key, new byte[] {7});
          assertEquals(2, t.getList(key).size());
          org.junit.jupiter.api.Assertions.assertArrayEquals(value, t.getList(key).get(0));
        }
      }
    }
  }

  @Test
  void tuningOptionsReachRocksDb() throws IOException {
    Path dir = tmp.resolve("tuned");
    try (StateBackend tuned =
        StateBackends.open(
            new StateBackendConfig(
                "rocksdb",
                dir,
                Map.of(
                    "rocksdb.writeBufferBytes", "65536",
                    "rocksdb.maxWriteBufferNumber", "2",
                    "rocksdb.blockCacheBytes", "1048576",
                    "rocksdb.rowCacheBytes", "65536",
                    "rocksdb.rowCacheMaxBytes", "65536")))) {
      StateTable t = tuned.table("t");
      byte[] value = new byte[1024];
      for (int i = 0; i < 4000; i++) {
        t.put(intKey(i), value);
      }
      // 4 MB through a 64 KiB row cache into 64 KiB memtables: RocksDB had to write SST files on
      // its own, which the defaults (an 8 MiB row cache, 8 MiB memtables) would not have done.
      assertTrue(
          countSstFiles(dir) > 0, "no SST files: writeBufferBytes or rowCacheBytes not applied");
      assertEquals(4000, count(t.iterator()));
    }
    try (StateBackend untuned =
        StateBackends.open(StateBackendConfig.of("rocksdb", dir.resolve("x")))) {
      StateTable t = untuned.table("t");
      for (int i = 0; i < 4000; i++) {
        t.put(intKey(i), new byte[1024]);
      }
      assertEquals(0, countSstFiles(dir.resolve("x")));
    }
  }

  /**
   * Counts SST files without reading their attributes: RocksDB's background compaction deletes
   * files while we list, and {@code Files.walk} fails on a file that vanished between the listing
   * and its stat.
   */
  private static long countSstFiles(Path dir) throws IOException {
    long count = 0;
    try (Stream<Path> children = Files.list(dir)) {
      for (Path child : (Iterable<Path>) children::iterator) {
        if (child.getFileName().toString().endsWith(".sst")) {
          count++;
        } else if (Files.isDirectory(child)) {
          count += countSstFiles(child);
        }
      }
    }
    return count;
  }
}
