package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.ByteKeyHashTest;
import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapIndexTest {

  @Test
  void orderedKeysFollowInterleavedInsertsUpdatesAndRemoves() {
    HeapIndex index = new HeapIndex();
    TreeMap<byte[], byte[]> reference = new TreeMap<>(KeyBytes::compare);
    Random random = new Random(11);
    for (int op = 0; op < 100_000; op++) {
      byte[] key = ByteKeyHashTest.key(random.nextInt(2_000));
      switch (random.nextInt(10)) {
        case 0, 1, 2 -> {
          int position = index.indexOf(key);
          assertEquals(reference.containsKey(key), position >= 0);
          if (position >= 0) {
            assertArrayEquals(reference.remove(key), index.value(position));
            index.removeAt(position, key);
          }
        }
        case 3 -> assertOrderedKeys(reference, index);
        case 4 -> {
          byte[] from = ByteKeyHashTest.key(random.nextInt(2_000));
          byte[] to = ByteKeyHashTest.key(random.nextInt(2_000));
          if (KeyBytes.compare(from, to) < 0) {
            Map<byte[], Long> expected = new TreeMap<>(KeyBytes::compare);
            reference.subMap(from, to).forEach((k, v) -> expected.put(k, (long) v.length));
            Map<byte[], Long> removed = new TreeMap<>(KeyBytes::compare);
            index.removeRange(from, to, removed::put);
            reference.subMap(from, to).clear();
            assertEquals(expected, removed);
          }
        }
        default -> {
          byte[] value = new byte[random.nextInt(12)];
          random.nextBytes(value);
          index.putValue(key, value);
          reference.put(key, value);
        }
      }
      assertEquals(reference.size(), index.size());
    }
    assertOrderedKeys(reference, index);
    for (Map.Entry<byte[], byte[]> e : reference.entrySet()) {
      assertArrayEquals(e.getValue(), index.value(index.indexOf(e.getKey())));
    }
  }

  /** A table that keeps its key order current: every change shows at once, a scan sorts nothing. */
  @Test
  void keptOrderFollowsEveryChangeAndAScanComparesNothing() {
    AtomicLong comparisons = new AtomicLong();
    HeapIndex index = new HeapIndex(counting(comparisons));
    TreeMap<byte[], byte[]> reference = new TreeMap<>(KeyBytes::compare);
    Random random = new Random(17);
    for (int i = 0; i < 3_000; i++) { // keys from before: the kept order starts with a build
      byte[] key = ByteKeyHashTest.key(random.nextInt(20_000));
      index.putValue(key, new byte[] {1});
      reference.put(key, new byte[] {1});
    }
    index.keepOrdered();
    for (int op = 0; op < 50_000; op++) {
      byte[] key = ByteKeyHashTest.key(random.nextInt(20_000));
      int position = index.indexOf(key);
      if (random.nextInt(3) == 0) {
        if (position >= 0) {
          index.removeAt(position, key);
          reference.remove(key);
        }
      } else if (random.nextBoolean()) {
        index.putValue(key, new byte[] {2});
        reference.put(key, new byte[] {2});
      } else {
        index.putList(key, FramedList.of(new byte[] {3}, new ListBufferPool()));
        reference.put(key, new byte[] {3});
      }
      if (op % 5_000 == 0) {
        comparisons.set(0);
        List<String> scanned = hex(index.orderedKeys());
        assertEquals(0, comparisons.get(), "a scan of a kept order sorts nothing");
        assertEquals(hex(reference.keySet()), scanned);
      }
    }
    comparisons.set(0);
    List<String> scanned = hex(index.orderedKeys());
    assertEquals(0, comparisons.get());
    assertEquals(hex(reference.keySet()), scanned);
  }

  /** Unsigned key order, counting its comparisons. */
  private static Comparator<byte[]> counting(AtomicLong comparisons) {
    return (a, b) -> {
      comparisons.incrementAndGet();
      return KeyBytes.compare(a, b);
    };
  }

  private static List<String> hex(Collection<byte[]> keys) {
    return keys.stream().map(HexFormat.of()::formatHex).toList();
  }

  /**
   * The first scan of a big table sorts its keys once and builds the ordered set from the sorted
   * array without comparing again (inserting them one by one would cost a descent per key); the set
   * then catches up with later writes as before.
   */
  @Test
  void firstScanBuildsTheOrderedKeysWithNoComparisonBeyondOneSort() {
    AtomicLong comparisons = new AtomicLong();
    HeapIndex index = new HeapIndex(counting(comparisons));
    TreeMap<byte[], byte[]> reference = new TreeMap<>(KeyBytes::compare);
    Random random = new Random(5);
    for (int i = 0; i < 200_000; i++) {
      byte[] key = new byte[1 + random.nextInt(24)];
      random.nextBytes(key);
      byte[] value = {(byte) i};
      index.putValue(key, value);
      reference.put(key, value);
    }
    // The oracle: what sorting the table's keys, in the order the table holds them, costs alone.
    List<byte[]> held = new ArrayList<>();
    index.forEachEntry((key, value, list) -> held.add(key));
    AtomicLong sortComparisons = new AtomicLong();
    byte[][] copy = held.toArray(new byte[0][]);
    Arrays.sort(
        copy,
        (a, b) -> {
          sortComparisons.incrementAndGet();
          return KeyBytes.compare(a, b);
        });

    comparisons.set(0);
    assertOrderedKeys(reference, index);
    assertEquals(sortComparisons.get(), comparisons.get());

    // Catch-up after the linear build: inserts and removes show in the next scan.
    for (int i = 0; i < 5_000; i++) {
      byte[] key = new byte[1 + random.nextInt(24)];
      random.nextBytes(key);
      index.putValue(key, new byte[] {7});
      reference.put(key, new byte[] {7});
      byte[] victim = reference.firstKey();
      index.removeAt(index.indexOf(victim), victim);
      reference.remove(victim);
    }
    assertOrderedKeys(reference, index);
    assertEquals(reference.size(), index.size());
  }

  /** The sorted arrays the build copies behave as a SortedMap (oracle: a TreeMap). */
  @Test
  void sortedEntryArrayAnswersLikeATreeMap() {
    Random random = new Random(17);
    TreeMap<byte[], FramedList> oracle = new TreeMap<>(KeyBytes::compare);
    while (oracle.size() < 500) {
      byte[] key = new byte[random.nextInt(4)];
      random.nextBytes(key);
      oracle.put(key, random.nextBoolean() ? FramedList.of(key, new ListBufferPool()) : null);
    }
    Comparator<byte[]> order = KeyBytes::compare;
    SortedMap<byte[], FramedList> view =
        new SortedEntryArray(
            oracle.keySet().toArray(new byte[0][]),
            oracle.values().toArray(new FramedList[0]),
            order);
    assertSame(oracle, view);
    assertEquals(order, view.comparator());
    // What the build does with it: a TreeMap copied from it equals the oracle.
    assertSame(oracle, new TreeMap<>(view));
    for (int i = 0; i < 300; i++) {
      byte[] a = new byte[random.nextInt(4)];
      byte[] b = new byte[random.nextInt(4)];
      random.nextBytes(a);
      random.nextBytes(b);
      assertEquals(oracle.containsKey(a), view.containsKey(a));
      org.junit.jupiter.api.Assertions.assertSame(oracle.get(a), view.get(a));
      assertSame(oracle.headMap(a), view.headMap(a));
      assertSame(oracle.tailMap(a), view.tailMap(a));
      if (KeyBytes.compare(a, b) <= 0) {
        assertSame(oracle.subMap(a, b), view.subMap(a, b));
        if (KeyBytes.compare(a, b) < 0) {
          assertSame(oracle.subMap(a, b).tailMap(a), view.subMap(a, b).tailMap(a));
        }
      } else {
        byte[] from = a;
        byte[] to = b;
        assertThrows(IllegalArgumentException.class, () -> view.subMap(from, to));
      }
    }
    SortedMap<byte[], FramedList> empty = view.tailMap(oracle.lastKey()).headMap(oracle.lastKey());
    assertTrue(empty.isEmpty());
    assertThrows(NoSuchElementException.class, empty::firstKey);
    assertThrows(NoSuchElementException.class, empty::lastKey);
    assertThrows(NoSuchElementException.class, () -> empty.entrySet().iterator().next());
    assertThrows(
        IllegalArgumentException.class,
        () -> new SortedEntryArray(new byte[1][], new FramedList[2], order));
  }

  private static void assertSame(
      SortedMap<byte[], FramedList> expected, SortedMap<byte[], FramedList> actual) {
    List<Map.Entry<byte[], FramedList>> e = new ArrayList<>(expected.entrySet());
    List<Map.Entry<byte[], FramedList>> a = new ArrayList<>(actual.entrySet());
    assertEquals(e.size(), a.size());
    assertEquals(e.size(), actual.size());
    for (int i = 0; i < e.size(); i++) {
      assertArrayEquals(e.get(i).getKey(), a.get(i).getKey());
      org.junit.jupiter.api.Assertions.assertSame(e.get(i).getValue(), a.get(i).getValue());
    }
    if (!e.isEmpty()) {
      assertArrayEquals(expected.firstKey(), actual.firstKey());
      assertArrayEquals(expected.lastKey(), actual.lastKey());
    }
  }

  @Test
  void keysAddedAndRemovedWithoutScansDoNotPileUp() {
    HeapIndex index = new HeapIndex();
    index.putValue(ByteKeyHashTest.key(-1), new byte[] {1});
    index.orderedKeys();
    // Far more add/remove pairs than the catch-up bound: the ordered set must end up exact.
    for (int i = 0; i < 50_000; i++) {
      index.putValue(ByteKeyHashTest.key(i), new byte[] {2});
      index.removeAt(index.indexOf(ByteKeyHashTest.key(i)), ByteKeyHashTest.key(i));
    }
    index.putValue(ByteKeyHashTest.key(3), new byte[] {3});
    List<byte[]> keys = new ArrayList<>(index.orderedKeys());
    assertEquals(2, keys.size());
    assertArrayEquals(ByteKeyHashTest.key(3), keys.get(0));
    assertArrayEquals(ByteKeyHashTest.key(-1), keys.get(1));
  }

  @Test
  void listsAndPlainValuesShareTheIndex() {
    HeapIndex index = new HeapIndex();
    index.putList(new byte[] {1}, FramedList.of(new byte[] {5}, new ListBufferPool()));
    index.putValue(new byte[] {2}, new byte[] {6});
    assertEquals(2, index.valueSize(index.indexOf(new byte[] {1})));
    assertArrayEquals(new byte[] {1, 5}, index.exportValue(index.indexOf(new byte[] {1})));
    index.putValue(new byte[] {1}, new byte[] {7, 7});
    assertArrayEquals(new byte[] {7, 7}, index.exportValue(index.indexOf(new byte[] {1})));
    List<String> seen = new ArrayList<>();
    index.forEachEntry(
        (key, value, list) -> seen.add(key[0] + ":" + (list == null ? value.length : -1)));
    seen.sort(null);
    assertEquals(List.of("1:2", "2:1"), seen);
  }

  @Test
  void structureVersionChangesOnlyWhenKeysComeOrGo() {
    HeapIndex index = new HeapIndex();
    index.putValue(new byte[] {1}, new byte[] {1});
    int version = index.structureVersion();
    index.putValue(new byte[] {1}, new byte[] {2});
    assertEquals(-1, index.indexOf(new byte[] {2}));
    assertEquals(version, index.structureVersion());
    index.removeAt(index.indexOf(new byte[] {1}), new byte[] {1});
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
        byte[] key = ByteKeyHashTest.key(random.nextInt(1_000));
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
        table.put(ByteKeyHashTest.key(10_000 + i), new byte[] {1});
      }
      table.deletePrefix(new byte[] {0});
      backend.restore(handle);
      assertTableEquals(atSnapshot, table);
      for (byte[] key : atSnapshot.keySet()) {
        assertArrayEquals(atSnapshot.get(key), table.get(key));
      }
      assertNull(table.get(ByteKeyHashTest.key(10_000)));
    }
  }

  private static void assertOrderedKeys(TreeMap<byte[], byte[]> reference, HeapIndex index) {
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
