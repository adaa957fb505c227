package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapIndexTest {

  @Test
  void orderedKeysFollowInterleavedInsertsUpdatesAndRemoves() {
    HeapIndex index = new HeapIndex();
    TreeMap<byte[], Object> reference = new TreeMap<>(KeyBytes::compare);
    Random random = new Random(11);
    for (int op = 0; op < 100_000; op++) {
      byte[] key = ByteKeyStrategyTest.key(random.nextInt(2_000));
      switch (random.nextInt(10)) {
        case 0, 1, 2 -> assertEquals(reference.remove(key), index.remove(key));
        case 3 -> assertOrderedKeys(reference, index);
        case 4 -> {
          byte[] from = ByteKeyStrategyTest.key(random.nextInt(2_000));
          byte[] to = ByteKeyStrategyTest.key(random.nextInt(2_000));
          if (KeyBytes.compare(from, to) < 0) {
            Map<byte[], Object> expected = new TreeMap<>(KeyBytes::compare);
            expected.putAll(reference.subMap(from, to));
            Map<byte[], Object> removed = new TreeMap<>(KeyBytes::compare);
            index.removeRange(from, to, removed::put);
            reference.subMap(from, to).clear();
            assertEquals(expected, removed);
          }
        }
        default -> assertEquals(reference.put(key, op), index.put(key, op));
      }
      assertEquals(reference.size(), index.size());
    }
    assertOrderedKeys(reference, index);
  }

  @Test
  void keysAddedAndRemovedWithoutScansDoNotPileUp() {
    HeapIndex index = new HeapIndex();
    index.put(ByteKeyStrategyTest.key(-1), "kept");
    // Far more add/remove pairs than the catch-up bound: the ordered set must end up exact.
    for (int i = 0; i < 50_000; i++) {
      index.put(ByteKeyStrategyTest.key(i), i);
      index.remove(ByteKeyStrategyTest.key(i));
    }
    index.put(ByteKeyStrategyTest.key(3), "re-added");
    List<byte[]> keys = new ArrayList<>(index.orderedKeys());
    assertEquals(2, keys.size());
    assertArrayEquals(ByteKeyStrategyTest.key(3), keys.get(0));
    assertArrayEquals(ByteKeyStrategyTest.key(-1), keys.get(1));
  }

  @Test
  void structureVersionChangesOnlyWhenKeysComeOrGo() {
    HeapIndex index = new HeapIndex();
    index.put(new byte[] {1}, "a");
    int version = index.structureVersion();
    index.put(new byte[] {1}, "b");
    index.remove(new byte[] {2});
    assertEquals(version, index.structureVersion());
    index.remove(new byte[] {1});
    assertFalse(version == index.structureVersion());
  }

  /** A table scanned while written, then snapshotted and restored, through the engine. */
  @Test
  void scansAndSnapshotsSeeInterleavedWrites(@TempDir Path dir) {
    try (StateBackend backend = new HeapStateBackend()) {
      StateTable table = backend.table("t");
      TreeMap<byte[], byte[]> reference = new TreeMap<>(KeyBytes::compare);
      Random random = new Random(3);
      for (int i = 0; i < 5_000; i++) {
        byte[] key = ByteKeyStrategyTest.key(random.nextInt(1_000));
        byte[] value = {(byte) i};
        table.put(key, value);
        reference.put(key, value);
      }
      // Delete every other entry and update the rest while scanning.
      try (CloseableIterator<StateEntry> it = table.iterator()) {
        boolean delete = true;
        while (it.hasNext()) {
          byte[] key = it.next().key();
          if (delete) {
            table.delete(key);
            reference.remove(key);
          } else {
            table.put(key, new byte[] {42});
            reference.put(key, new byte[] {42});
          }
          delete = !delete;
        }
      }
      assertTableEquals(reference, table);

      SnapshotHandle handle = backend.snapshot(1, dir.resolve("snap"));
      TreeMap<byte[], byte[]> atSnapshot = new TreeMap<>(reference);
      for (int i = 0; i < 1_000; i++) {
        table.put(ByteKeyStrategyTest.key(10_000 + i), new byte[] {1});
      }
      table.deletePrefix(new byte[] {0});
      backend.restore(handle);
      assertTableEquals(atSnapshot, table);
      for (byte[] key : atSnapshot.keySet()) {
        assertArrayEquals(atSnapshot.get(key), table.get(key));
      }
      assertNull(table.get(ByteKeyStrategyTest.key(10_000)));
    }
  }

  private static void assertOrderedKeys(TreeMap<byte[], Object> reference, HeapIndex index) {
    List<byte[]> expected = new ArrayList<>(reference.keySet());
    List<byte[]> actual = new ArrayList<>(index.orderedKeys());
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i));
    }
  }

  private static void assertTableEquals(TreeMap<byte[], byte[]> expected, StateTable table) {
    List<StateEntry> entries = new ArrayList<>();
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      it.forEachRemaining(entries::add);
    }
    assertEquals(expected.size(), entries.size());
    int i = 0;
    for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
      assertArrayEquals(e.getKey(), entries.get(i).key());
      assertArrayEquals(e.getValue(), entries.get(i).value());
      i++;
    }
  }
}
