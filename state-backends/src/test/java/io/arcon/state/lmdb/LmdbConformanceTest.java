package io.arcon.state.lmdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KillChild;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackendConformanceTest;
import io.arcon.state.StateBackends;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LmdbConformanceTest extends StateBackendConformanceTest {
  @Override
  protected StateBackend open(Path directory) {
    return StateBackends.open(StateBackendConfig.of("lmdb", directory));
  }

  @Override
  protected String engine() {
    return "lmdb";
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  /**
   * Writes are committed in batches of {@code lmdb.writeBatchOps} (default 10000): the child's 500
   * writes after its flush were never committed, so the kill lost them.
   */
  @Override
  protected void assertUnflushedAfterKill(StateTable values) {
    for (int i = 0; i < KillChild.UNFLUSHED; i++) {
      assertNull(values.get(KillChild.key("unflushed", i)));
    }
  }

  @Test
  void mapGrowsInsteadOfFailingWhenFull() {
    int original = 2000;
    try (StateBackend small =
        StateBackends.open(
            new StateBackendConfig(
                "lmdb",
                tmp.resolve("small"),
                Map.of("lmdb.mapSizeBytes", "1048576", "lmdb.writeBatchOps", "100000")))) {
      StateTable t = small.table("t");
      StateTable other = small.table("other");
      byte[] value = new byte[1024];
      new Random(3).nextBytes(value);
      for (int i = 0; i < original; i++) {
        t.put(intKey(i), value); // 2 MB: already twice the initial map
      }
      // A scan is open (across several chunks) while the map is resized underneath it.
      int seen = 0;
      try (CloseableIterator<StateEntry> it = t.iterator()) {
        while (it.hasNext()) {
          StateEntry e = it.next();
          assertEquals(seen, ByteBuffer.wrap(e.key()).getInt());
          assertArrayEquals(value, e.value());
          seen++;
          if (seen == 700) {
            for (int i = 0; i < 8000; i++) {
              other.put(intKey(i), value); // 8 MB more
              other.append(intKey(-1 - (i % 3)), intKey(i));
            }
            byte[] big = new byte[6 << 20];
            Arrays.fill(big, (byte) 7);
            other.put(intKey(99_999), big);
          }
        }
      }
      assertEquals(original, seen);
      assertEquals(8000 / 3 + 1, other.getList(intKey(-1)).size());
      assertEquals(6 << 20, other.get(intKey(99_999)).length);
      assertArrayEquals(value, other.get(intKey(7999)));
    }
    try (StateBackend reopened =
        StateBackends.open(StateBackendConfig.of("lmdb", tmp.resolve("small")))) {
      assertEquals(original, count(reopened.table("t").iterator()));
      assertEquals(8000 + 3 + 1, count(reopened.table("other").iterator()));
    }
  }

  @Test
  void keysLongerThanLmdbAllowsAreRefusedWithAdvice() {
    StateTable t = backend.table("t");
    byte[] longest = new byte[510];
    Arrays.fill(longest, (byte) 0xff);
    t.put(longest, b(1));
    t.append(Arrays.copyOf(longest, 509), b(1));
    assertArrayEquals(b(1), t.get(longest));
    byte[] tooLong = new byte[511];
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> t.put(tooLong, b(1)));
    assertTrue(e.getMessage().contains("510"), e.getMessage());
    assertTrue(e.getMessage().contains("'t'"), e.getMessage());
    assertTrue(e.getMessage().contains("rocksdb"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> t.append(tooLong, b(1)));
    assertNull(t.get(tooLong));
    // Bounds may be longer than any key: they only position the scan.
    byte[] longBound = new byte[600];
    Arrays.fill(longBound, (byte) 0xff);
    assertEquals(1, count(t.scan(longest, longBound)));
    assertEquals(0, count(t.scan(longBound, null)));
    byte[] justAbove = Arrays.copyOf(longest, 600);
    t.deleteRange(b(0), justAbove);
    assertEquals(0, count(t.iterator()));
  }

  @Test
  void readsSeeUncommittedWritesAndBatchesCommit() {
    try (StateBackend batched =
        StateBackends.open(
            new StateBackendConfig(
                "lmdb", tmp.resolve("batched"), Map.of("lmdb.writeBatchOps", "3")))) {
      StateTable t = batched.table("t");
      for (int i = 0; i < 10; i++) {
        t.put(intKey(i), intKey(i));
        assertArrayEquals(intKey(i), t.get(intKey(i)));
        assertEquals(i + 1, count(t.iterator()));
      }
      // Creating a table mid-batch commits the batch first and keeps every write.
      t.put(intKey(100), b(1));
      batched.table("u").put(b(1), b(1));
      assertArrayEquals(b(1), t.get(intKey(100)));
      assertEquals(ByteBuffer.wrap(intKey(9)), ByteBuffer.wrap(t.get(intKey(9))));
    }
  }
}
