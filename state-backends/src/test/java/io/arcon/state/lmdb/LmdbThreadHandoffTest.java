package io.arcon.state.lmdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend is used by one thread at a time, but the runtime's actors hop between pool threads: an
 * uncommitted write transaction begun on one thread must be continued and committed from another.
 * With LMDB's thread-bound writer lock this hung the second thread in txn_begin.
 */
class LmdbThreadHandoffTest {
  @Test
  void writesContinueOnAnotherThread(@TempDir Path dir) throws Exception {
    ExecutorService first = Executors.newSingleThreadExecutor();
    ExecutorService second = Executors.newSingleThreadExecutor();
    // Batches far larger than the writes, so every handoff happens inside an open transaction.
    StateBackend backend =
        StateBackends.open(
            new StateBackendConfig("lmdb", dir, Map.of("lmdb.writeBatchOps", "100000")));
    try {
      StateTable table = backend.table("t");
      for (int round = 0; round < 50; round++) {
        int r = round;
        ExecutorService executor = round % 2 == 0 ? first : second;
        Future<?> step =
            executor.submit(
                () -> {
                  table.put(bytes("k" + r), bytes("v" + r));
                  table.append(bytes("list"), bytes("e" + r));
                  // Rounds alternate threads and commit every 4th: begun on one, committed on the
                  // other.
                  if (r % 4 == 3) {
                    backend.flush();
                  }
                });
        // A hang guard, not a timing assertion: before the fix this never returned.
        step.get(60, TimeUnit.SECONDS);
      }
      Future<List<byte[]>> list = first.submit(() -> table.getList(bytes("list")));
      assertEquals(50, list.get(60, TimeUnit.SECONDS).size());
      for (int round = 0; round < 50; round++) {
        assertArrayEquals(bytes("v" + round), table.get(bytes("k" + round)));
      }
    } finally {
      backend.dispose();
      first.shutdownNow();
      second.shutdownNow();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
