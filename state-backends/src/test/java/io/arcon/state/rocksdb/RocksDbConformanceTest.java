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
                    "rocksdb.blockCacheBytes", "1048576")))) {
      StateTable t = tuned.table("t");
      byte[] value = new byte[1024];
      for (int i = 0; i < 4000; i++) {
        t.put(intKey(i), value);
      }
      // 4 MB through 64 KiB memtables: RocksDB had to write SST files on its own, which the
      // 32 MiB default would not have done.
      assertTrue(countSstFiles(dir) > 0, "no SST files: writeBufferBytes was not applied");
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

  private static long countSstFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".sst")).count();
    }
  }
}
