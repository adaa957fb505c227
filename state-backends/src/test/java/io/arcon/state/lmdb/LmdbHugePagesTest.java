package io.arcon.state.lmdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateTable;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LmdbHugePagesTest {
  @TempDir Path tmp;

  @Test
  void adviceOnNothingMappedIsRefusedQuietly() {
    assertFalse(LmdbHugePages.advise(0, 1 << 21));
    assertFalse(LmdbHugePages.advise(4096, 0));
    // An address nothing is mapped at: madvise fails (ENOMEM), the hint is simply not taken.
    assertFalse(LmdbHugePages.advise(0x10_0000_0000L - (1 << 21), 1 << 21));
  }

  /**
   * With {@code MDB_WRITEMAP} the reader and the writer share the map: reads interleaved with
   * writes, batch commits (every 7 writes), flushes and map growth must always see the latest write
   * and never a stale or recycled page.
   */
  @Test
  void readsSeeOwnWritesAcrossCommitsAndGrowthInWriteMapMode() {
    try (StateBackend backend =
        StateBackends.open(
            new StateBackendConfig(
                "lmdb",
                tmp.resolve("b"),
                Map.of("lmdb.mapSizeBytes", "1048576", "lmdb.writeBatchOps", "7")))) {
      StateTable t = backend.table("t");
      byte[] value = new byte[700];
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 3000; i++) {
          byte[] key = ByteBuffer.allocate(4).putInt(i).array();
          ByteBuffer.wrap(value).putInt(round).putInt(i);
          if (round == 2 && i % 5 == 0) {
            t.delete(key);
            assertNull(t.get(key));
          } else {
            t.put(key, value.clone());
            assertArrayEquals(value, t.get(key));
          }
          if (i % 1000 == 999) {
            backend.flush();
          }
        }
      }
      for (int i = 0; i < 3000; i++) {
        ByteBuffer.wrap(value).putInt(3).putInt(i);
        assertArrayEquals(value, t.get(ByteBuffer.allocate(4).putInt(i).array()));
      }
    }
  }
}
