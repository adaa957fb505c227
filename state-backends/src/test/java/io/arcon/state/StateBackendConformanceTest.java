package io.arcon.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.arcon.state.snapshot.SnapshotManifest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one contract every engine meets, run against each engine by a subclass. A transform must be
 * able to move between engines by configuration only, so anything engine-specific belongs in the
 * subclass, not here.
 */
public abstract class StateBackendConformanceTest {
  private static final HexFormat HEX = HexFormat.of();

  @TempDir protected Path tmp;
  protected StateBackend backend;

  /** Opens the engine under test over {@code directory} (ignored by in-memory engines). */
  protected abstract StateBackend open(Path directory);

  /** The engine's name as {@link StateBackends#ENGINES} spells it. */
  protected abstract String engine();

  /** Whether the engine keeps its tables in its directory across close/reopen. */
  protected abstract boolean persistent();

  protected Path dataDir() {
    return tmp.resolve("data");
  }

  @BeforeEach
  void openBackend() {
    backend = open(dataDir());
  }

  @AfterEach
  void closeBackend() {
    if (backend != null) {
      backend.close();
    }
  }

  // ---------------------------------------------------------------- point operations

  @Test
  void putGetDeleteAndOverwrite() {
    StateTable t = backend.table("t");
    assertNull(t.get(b(1)));
    t.put(b(1), b(10));
    t.put(b(2), b(20));
    assertArrayEquals(b(10), t.get(b(1)));
    t.put(b(1), b(11, 12));
    assertArrayEquals(b(11, 12), t.get(b(1)));
    t.delete(b(1));
    assertNull(t.get(b(1)));
    t.delete(b(99)); // deleting an absent key is fine
    assertArrayEquals(b(20), t.get(b(2)));
  }

  /**
   * A put of a buffer's prefix stores a copy of exactly that prefix: the caller reuses the buffer
   * for its next value, for a row held in place (same or other length) or not, absent or present.
   */
  @Test
  void aPutCopyOfStoresThePrefixAndNotTheBuffer() {
    StateTable t = backend.table("t");
    byte[] buffer = new byte[200];
    Arrays.fill(buffer, (byte) 9);
    t.putCopyOf(b(1), buffer, 3);
    byte[] stored = b(9, 9, 9);
    assertArrayEquals(stored, t.get(b(1)));
    byte[] key = b(1);
    for (int length : new int[] {3, 1, 7, 0, 120, 5}) {
      Arrays.fill(buffer, (byte) length); // the next value, written into the same buffer
      assertArrayEquals(stored, t.get(key));
      t.putCopyOf(key, buffer, length);
      stored = new byte[length];
      Arrays.fill(stored, (byte) length);
      Arrays.fill(buffer, (byte) -1);
      assertArrayEquals(stored, t.get(key));
      assertArrayEquals(stored, t.get(b(1)));
    }
    t.delete(key);
    assertNull(t.get(b(1)));
    t.putCopyOf(key, buffer, 2);
    assertArrayEquals(b(-1, -1), t.get(b(1)));
  }

  /**
   * A get through a decoder sees exactly the bytes {@link StateTable#get(byte[])} returns, for
   * values held inline and in a slab (short and long, long keys), lists, overwritten and deleted
   * rows, and nothing for an absent key.
   */
  @Test
  void aDecodingGetSeesExactlyTheStoredValue() {
    StateTable t = backend.table("t");
    StateTable.ValueDecoder<byte[]> copy =
        (bytes, offset, length) -> Arrays.copyOfRange(bytes, offset, offset + length);
    Random random = new Random(17);
    Map<Integer, byte[]> values = new TreeMap<>();
    for (int k = 0; k < 300; k++) {
      byte[] key = new byte[1 + random.nextInt(k % 3 == 0 ? 90 : 12)];
      random.nextBytes(key);
      key[0] = (byte) k;
      key = Arrays.copyOf(key, key.length + 1);
      key[key.length - 1] = (byte) (k >> 8);
      byte[] value = new byte[random.nextInt(k % 2 == 0 ? 8 : 300)];
      random.nextBytes(value);
      t.put(key, value);
      values.put(k, key);
    }
    for (byte[] key : values.values()) {
      assertArrayEquals(t.get(key), t.get(key, copy));
    }
    byte[] first = values.get(0);
    t.put(first, b(1, 2, 3, 4, 5, 6, 7, 8, 9));
    assertArrayEquals(b(1, 2, 3, 4, 5, 6, 7, 8, 9), t.get(first, copy));
    t.delete(first);
    assertNull(t.get(first, copy));
    assertNull(t.get(b(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), copy));
    t.append(b(7, 7), b(1));
    t.append(b(7, 7), b(2, 3));
    assertArrayEquals(t.get(b(7, 7)), t.get(b(7, 7), copy));
  }

  /**
   * A caller may keep what a get returned: overwriting the row, with a value of the same length
   * (which an engine may copy into its own array in place) or another, must not change it, nor may
   * the array passed to a put be written into later (it may be stored under another key too).
   */
  @Test
  void aValueOnceReadOrWrittenKeepsItsContent() {
    StateTable t = backend.table("t");
    byte[] written = b(1, 2, 3);
    t.put(b(1), written);
    byte[] first = t.get(b(1));
    t.put(b(1), b(4, 5, 6));
    byte[] second = t.get(b(1));
    t.put(b(2), second); // one array under two keys
    t.put(b(1), b(7, 8, 9));
    t.put(b(1), b(10));
    assertArrayEquals(b(4, 5, 6), t.get(b(2)));
    assertArrayEquals(b(1, 2, 3), written);
    assertArrayEquals(b(1, 2, 3), first);
    assertArrayEquals(b(4, 5, 6), second);
    assertArrayEquals(b(10), t.get(b(1)));
  }

  @Test
  void emptyKeyAndEmptyValueAreStored() {
    StateTable t = backend.table("t");
    t.put(new byte[0], b(7));
    t.put(b(1), new byte[0]);
    assertArrayEquals(b(7), t.get(new byte[0]));
    assertArrayEquals(new byte[0], t.get(b(1)));
    assertEquals(List.of("", "01"), keysOf(t.iterator()));
  }

  @Test
  void tablesAreIndependentAndListed() {
    StateTable a = backend.table("a");
    StateTable c = backend.table("c");
    a.put(b(1), b(1));
    c.put(b(1), b(2));
    assertArrayEquals(b(1), a.get(b(1)));
    assertArrayEquals(b(2), c.get(b(1)));
    assertEquals("a", a.name());
    assertTrue(backend.tableNames().containsAll(List.of("a", "c")));
    assertEquals(2, backend.tableNames().size());
    // Asking again returns the same table content.
    assertArrayEquals(b(1), backend.table("a").get(b(1)));
    // A table named like an engine-internal name is still just a table.
    backend.table("default").put(b(5), b(5));
    assertArrayEquals(b(5), backend.table("default").get(b(5)));
  }

  @Test
  void aTableIsCreatedOnceAndNeedsANonEmptyName() {
    StateTable a = backend.table("a");
    assertSame(a, backend.table("a"), "asking again returns the table created first");
    for (String bad : Arrays.asList("", null)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> backend.table(bad));
      assertEquals("A state table needs a non-empty name", e.getMessage());
    }
    assertEquals(List.of("a"), List.copyOf(backend.tableNames()), "a refused name leaves no table");
  }

  @Test
  void deleteRangeRemovesHalfOpenInterval() {
    StateTable t = backend.table("t");
    for (int i = 0; i < 10; i++) {
      t.put(b(i), b(i));
    }
    t.deleteRange(b(3), b(7));
    assertEquals(List.of("00", "01", "02", "07", "08", "09"), keysOf(t.iterator()));
    t.deleteRange(b(8), b(8)); // empty
    t.deleteRange(b(9), b(2)); // inverted: nothing
    assertEquals(6, count(t.iterator()));
  }

  @Test
  void deletePrefixIncludingAllOnesPrefix() {
    StateTable t = backend.table("t");
    t.put(b(1, 1), b(0));
    t.put(b(1, 2), b(0));
    t.put(b(2), b(0));
    t.put(b(0xff), b(0));
    t.put(b(0xff, 0x00), b(0));
    t.put(b(0xff, 0xff, 3), b(0));
    t.deletePrefix(b(1));
    assertEquals(List.of("02", "ff", "ff00", "ffff03"), keysOf(t.iterator()));
    t.deletePrefix(b(0xff, 0xff)); // no end key exists: the scan-and-delete path
    assertEquals(List.of("02", "ff", "ff00"), keysOf(t.iterator()));
    t.deletePrefix(b(0xff));
    assertEquals(List.of("02"), keysOf(t.iterator()));
  }

  @Test
  void aPutAfterADeleteOfItsRangeOrPrefixIsVisible() {
    // The update of a state cell after its clear: rocksdb overwrites a memtable value in place,
    // which once left a key covered by the clear's range tombstone and so invisible.
    StateTable t = backend.table("cleared");
    for (int round = 0; round < 3; round++) {
      t.put(b(5, 1), b(round, 1));
      t.put(b(5, 2), b(round, 2));
      t.put(b(6), b(round, 3));
      if (round == 1) {
        t.deleteRange(b(5), b(6));
      } else {
        t.deletePrefix(b(5));
      }
      assertNull(t.get(b(5, 1)));
      t.put(b(5, 1), b(round, 9)); // same size as the value that was there
      assertEquals("0" + round + "09", HEX.formatHex(t.get(b(5, 1))));
      assertEquals(List.of("0501", "06"), keysOf(t.iterator()));
      t.deletePrefix(b()); // everything: the no-end-key path
      assertEquals(List.of(), keysOf(t.iterator()));
      t.put(b(6), b(round, 4));
      assertEquals("0" + round + "04", HEX.formatHex(t.get(b(6))));
      t.delete(b(6));
    }
  }

  @Test
  void appendKeepsOrderAndGetListDecodes() {
    StateTable t = backend.table("bags");
    assertEquals(List.of(), t.getList(b(1)));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      byte[] element = ("element-" + i).getBytes(StandardCharsets.UTF_8);
      t.append(b(1), element);
      expected.add("element-" + i);
    }
    t.append(b(2), new byte[0]);
    t.append(b(2), new byte[300]); // length needs a two-byte varint
    assertEquals(expected, strings(t.getList(b(1))));
    List<byte[]> two = t.getList(b(2));
    assertEquals(2, two.size());
    assertEquals(0, two.get(0).length);
    assertEquals(300, two.get(1).length);
    // get() of a list key gives the framed bytes, the same as scan's value.
    assertEquals(strings(ListFraming.decode(t.get(b(1)))), expected);
    try (CloseableIterator<StateEntry> it = t.prefixScan(b(1))) {
      assertEquals(expected, strings(it.next().elements()));
      assertFalse(it.hasNext());
    }
    t.delete(b(1));
    assertEquals(List.of(), t.getList(b(1)));
    t.append(b(1), b(9));
    assertEquals(1, t.getList(b(1)).size());
  }

  /**
   * {@code appendAll} adds what appends one by one would: to an absent key, to a list, to a plain
   * value holding framed bytes, with empty and large elements, and nothing for no elements; and it
   * survives a snapshot and restore like any list.
   */
  @Test
  void appendAllAddsWhatAppendsOneByOneWould() {
    StateTable t = backend.table("chains");
    byte[] key = utf8("row");
    t.appendAll(key, List.of(utf8("1:a"), new byte[0], new byte[300]));
    List<byte[]> first = t.getList(key);
    assertEquals(3, first.size());
    assertEquals("1:a", new String(first.get(0), StandardCharsets.UTF_8));
    assertEquals(0, first.get(1).length);
    assertEquals(300, first.get(2).length);

    t.appendAll(key, List.of());
    t.append(key, utf8("2:a"));
    t.appendAll(key, List.of(utf8("3:a"), utf8("3:b")));
    assertEquals(List.of("2:a", "3:a", "3:b"), utf8List(t.getList(key)).subList(3, 6));

    byte[] plain = utf8("plain");
    t.put(plain, ListFraming.frame(utf8("4:a")));
    t.appendAll(plain, List.of(utf8("5:a"), utf8("5:b")));
    assertEquals(List.of("4:a", "5:a", "5:b"), utf8List(t.getList(plain)));
    t.appendAll(utf8("empty"), List.of());
    assertNull(t.get(utf8("empty")));

    SnapshotHandle handle = backend.snapshot(3, tmp.resolve("snap-append-all"));
    t.appendAll(plain, List.of(utf8("6:a")));
    backend.restore(handle);
    t.appendAll(plain, List.of(utf8("7:a"), utf8("7:b")));
    assertEquals(
        List.of("4:a", "5:a", "5:b", "7:a", "7:b"),
        utf8List(backend.table("chains").getList(plain)));
  }

  private static List<String> utf8List(List<byte[]> list) {
    return list.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void appendWhileIteratingAndReadingInterleaves() {
    StateTable t = backend.table("bags");
    for (int i = 0; i < 200; i++) {
      t.append(b(i % 7), b(i));
      assertEquals(i / 7 + 1, t.getList(b(i % 7)).size());
    }
  }

  // ---------------------------------------------------------------- scans

  @Test
  void scanOrderIsUnsigned() {
    StateTable t = backend.table("t");
    List<byte[]> keys =
        List.of(b(0xff), b(0x80), b(0x7f), b(0x00), b(0x00, 0x00), b(0xff, 0xff), b(0x7f, 0x80));
    for (byte[] k : keys) {
      t.put(k, k);
    }
    assertEquals(List.of("00", "0000", "7f", "7f80", "80", "ff", "ffff"), keysOf(t.iterator()));
    try (CloseableIterator<StateEntry> it = t.iterator()) {
      while (it.hasNext()) {
        StateEntry e = it.next();
        assertArrayEquals(e.key(), e.value());
      }
    }
  }

  @Test
  void scanBoundsAreInclusiveExclusiveOrOpen() {
    StateTable t = backend.table("t");
    for (int i : new int[] {0x00, 0x10, 0x7f, 0x80, 0x90, 0xff}) {
      t.put(b(i), b(i));
    }
    assertEquals(List.of("10", "7f", "80"), keysOf(t.scan(b(0x10), b(0x90))));
    assertEquals(List.of("10", "7f", "80"), keysOf(t.scan(b(0x01), b(0x80, 0x00))));
    assertEquals(List.of("00", "10"), keysOf(t.scan(null, b(0x7f))));
    assertEquals(List.of("90", "ff"), keysOf(t.scan(b(0x90), null)));
    assertEquals(6, count(t.scan(null, null)));
    assertEquals(List.of(), keysOf(t.scan(b(0x80), b(0x80))));
    assertEquals(List.of(), keysOf(t.scan(b(0x90), b(0x10))));
    assertEquals(List.of(), keysOf(t.scan(b(0xff, 0x00), null)));
    assertEquals(List.of(), keysOf(backend.table("empty").iterator()));
  }

  @Test
  void scanKeysGivesTheKeysOfTheScanAndToleratesWritesWhileIterating() {
    StateTable t = backend.table("t");
    for (int i : new int[] {0x00, 0x10, 0x7f, 0x80, 0x90, 0xff}) {
      t.put(b(i), b(i));
    }
    t.append(b(0x20), b(1));
    assertEquals(keysOf(t.scan(b(0x10), b(0x90))), hex(t.scanKeys(b(0x10), b(0x90))));
    assertEquals(keysOf(t.iterator()), hex(t.scanKeys(null, null)));
    assertEquals(List.of(), hex(t.scanKeys(b(0x90), b(0x10))));
    // Deleting the key just returned and adding one behind the cursor, as a pruner does.
    List<String> seen = new ArrayList<>();
    try (CloseableIterator<byte[]> it = t.scanKeys(null, null)) {
      while (it.hasNext()) {
        byte[] key = it.next();
        seen.add(HEX.formatHex(key));
        t.delete(key);
        if (key[0] == 0x10) {
          t.put(b(0x05), b(5));
        }
      }
    }
    assertEquals(List.of("00", "10", "20", "7f", "80", "90", "ff"), seen);
    assertEquals(List.of("05"), keysOf(t.iterator()));
  }

  private static List<String> hex(CloseableIterator<byte[]> keys) {
    List<String> out = new ArrayList<>();
    try (keys) {
      keys.forEachRemaining(k -> out.add(HEX.formatHex(k)));
    }
    return out;
  }

  @Test
  void prefixScanFindsExactlyThePrefix() {
    StateTable t = backend.table("t");
    t.put(b(1), b(0));
    t.put(b(1, 0), b(0));
    t.put(b(1, 0xff, 0xff), b(0));
    t.put(b(2), b(0));
    t.put(b(0xff, 0xff), b(0));
    t.put(b(0xff, 0xff, 0xff), b(0));
    assertEquals(List.of("01", "0100", "01ffff"), keysOf(t.prefixScan(b(1))));
    assertEquals(List.of("ffff", "ffffff"), keysOf(t.prefixScan(b(0xff, 0xff))));
    assertEquals(6, count(t.prefixScan(new byte[0])));
    assertEquals(List.of(), keysOf(t.prefixScan(b(3))));
  }

  @Test
  void scanToleratesDeletesAndPutsWhileIterating() {
    StateTable t = backend.table("timers");
    for (int i = 0; i < 3000; i++) {
      t.put(intKey(i), b(1));
    }
    int seen = 0;
    try (CloseableIterator<StateEntry> it = t.iterator()) {
      while (it.hasNext()) {
        StateEntry e = it.next();
        assertEquals(seen, ByteBuffer.wrap(e.key()).getInt());
        t.delete(e.key());
        seen++;
      }
    }
    assertEquals(3000, seen);
    assertEquals(0, count(t.iterator()));
  }

  @Test
  void closingAScanEarlyIsFine() {
    StateTable t = backend.table("t");
    for (int i = 0; i < 100; i++) {
      t.put(intKey(i), b(i));
    }
    for (int round = 0; round < 50; round++) {
      try (CloseableIterator<StateEntry> it = t.iterator()) {
        assertTrue(it.hasNext());
        assertArrayEquals(intKey(0), it.next().key());
      }
    }
    t.put(intKey(1000), b(1));
    assertEquals(101, count(t.iterator()));
  }

  // ---------------------------------------------------------------- size

  @Test
  void approximateSizeGrowsWithContent() {
    long before = backend.approximateSizeBytes();
    StateTable t = backend.table("t");
    byte[] value = new byte[1024];
    new Random(1).nextBytes(value);
    for (int i = 0; i < 2000; i++) {
      t.put(intKey(i), value);
    }
    long after = backend.approximateSizeBytes();
    assertTrue(after > before, "size must grow: before " + before + ", after " + after);
    assertTrue(t.approximateSizeBytes() > 0);
    assertTrue(after >= t.approximateSizeBytes());
  }

  // ---------------------------------------------------------------- large data

  @Test
  void valuesOfTenMegabytesAndMore() {
    StateTable t = backend.table("big");
    byte[] value = new byte[12 << 20];
    new Random(42).nextBytes(value);
    t.put(b(1), value);
    t.put(b(2), b(2));
    assertArrayEquals(value, t.get(b(1)));
    byte[] element = Arrays.copyOf(value, 11 << 20);
    t.append(b(3), element);
    t.append(b(3), b(7));
    List<byte[]> list = t.getList(b(3));
    assertEquals(2, list.size());
    assertArrayEquals(element, list.get(0));
    SnapshotHandle handle = backend.snapshot(1, tmp.resolve("snap"));
    t.put(b(1), b(0));
    backend.restore(handle);
    assertArrayEquals(value, backend.table("big").get(b(1)));
    assertEquals(2, backend.table("big").getList(b(3)).size());
  }

  @Test
  protected void aMillionKeys() {
    StateTable t = backend.table("many");
    int n = 1_000_000;
    byte[] value = new byte[8];
    for (int i = 0; i < n; i++) {
      // Scrambled insertion order: the engines must sort, not just keep insertion order.
      int k = (int) ((i * 2654435761L) % n);
      t.put(intKey(k), value);
    }
    int expected = 0;
    try (CloseableIterator<StateEntry> it = t.iterator()) {
      while (it.hasNext()) {
        assertEquals(expected++, ByteBuffer.wrap(it.next().key()).getInt());
      }
    }
    assertEquals(n, expected);
    assertNotNull(t.get(intKey(n - 1)));
    t.deleteRange(intKey(0), intKey(n / 2));
    assertEquals(n / 2, count(t.iterator()));
    assertNull(t.get(intKey(0)));
    assertNotNull(t.get(intKey(n / 2)));
  }

  // ---------------------------------------------------------------- snapshots

  @Test
  void snapshotMutateRestoreGivesExactlyTheSnapshot() {
    fillSample(backend);
    Map<String, Map<String, String>> atSnapshot = dump(backend);
    SnapshotHandle handle = backend.snapshot(7, tmp.resolve("snap-7"));
    assertEquals(engine(), handle.engine());
    assertEquals(7, handle.epoch());
    assertTrue(Files.exists(handle.directory().resolve(SnapshotManifest.FILE_NAME)));

    StateTable values = backend.table("values");
    values.put(b(1), b(99));
    values.delete(b(2));
    values.put(b(50), b(50));
    backend.table("bags").append(b(1), b(42));
    backend.table("later").put(b(1), b(1));
    assertFalse(atSnapshot.equals(dump(backend)));

    backend.restore(handle);
    Map<String, Map<String, String>> restored = dump(backend);
    restored.remove("later"); // created after the snapshot: present but empty
    assertEquals(atSnapshot, restored);
    assertEquals(0, count(backend.table("later").iterator()));
    // Tables handed out before the restore see the restored content and keep working.
    assertArrayEquals(sampleValue(1), values.get(b(1)));
    values.put(b(60), b(60));
    assertArrayEquals(b(60), backend.table("values").get(b(60)));
  }

  /**
   * An asynchronous snapshot holds exactly the state when it was taken, however much the owner
   * writes while it completes: overwrites and deletes of every key, appends, a new table, more
   * writes than one LMDB batch (whose commit must wait for the copy) and a flush.
   */
  @Test
  void asyncSnapshotHoldsExactlyTheStateAtTheCut() {
    StateTable values = backend.table("values");
    StateTable bags = backend.table("bags");
    int n = 30_000;
    for (int i = 0; i < n; i++) {
      values.put(intKey(i), intKey(i * 3));
      bags.append(intKey(i % 100), intKey(i));
    }
    Map<String, Map<String, String>> atCut = dump(backend);
    CompletableFuture<SnapshotHandle> pending = backend.snapshotAsync(4, tmp.resolve("async"));
    for (int i = 0; i < n; i++) {
      if (i % 3 == 0) {
        values.delete(intKey(i));
      } else {
        values.put(intKey(i), intKey(-i));
      }
      bags.append(intKey(i % 100), intKey(-i));
      values.put(intKey(n + i), intKey(i));
    }
    backend.table("later").put(b(1), b(2));
    Map<String, Map<String, String>> afterCut = dump(backend);
    backend.flush();
    SnapshotHandle handle = pending.join();
    assertEquals(4, handle.epoch());
    assertEquals(afterCut, dump(backend), "writes made during the snapshot are kept");
    try (StateBackend other = open(tmp.resolve("other-data"))) {
      other.restore(handle);
      assertEquals(atCut, dump(other));
    }
  }

  @Test
  void severalSnapshotsSideBySideAreEachRestorable() {
    StateTable t = backend.table("t");
    List<SnapshotHandle> handles = new ArrayList<>();
    List<Map<String, Map<String, String>>> dumps = new ArrayList<>();
    for (int epoch = 1; epoch <= 3; epoch++) {
      for (int i = 0; i < 100; i++) {
        t.put(intKey(epoch * 1000 + i), b(epoch));
      }
      t.append(b(0), b(epoch));
      t.delete(intKey((epoch - 1) * 1000));
      dumps.add(dump(backend));
      handles.add(backend.snapshot(epoch, tmp.resolve("snaps").resolve("epoch-" + epoch)));
    }
    for (int i : new int[] {1, 0, 2, 0}) {
      backend.restore(handles.get(i));
      assertEquals(dumps.get(i), dump(backend), "restore of epoch " + (i + 1));
    }
  }

  @Test
  void snapshotRestoresIntoAFreshBackend() {
    fillSample(backend);
    Map<String, Map<String, String>> expected = dump(backend);
    SnapshotHandle handle = backend.snapshot(3, tmp.resolve("snap"));
    try (StateBackend other = open(tmp.resolve("other-data"))) {
      other.restore(handle);
      assertEquals(expected, dump(other));
      other.table("values").put(b(9), b(9));
      assertArrayEquals(b(9), other.table("values").get(b(9)));
    }
  }

  @Test
  void snapshotIntoANonEmptyDirectoryIsRefused() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("busy"));
    Files.writeString(dir.resolve("other.txt"), "not mine");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> backend.snapshot(1, dir));
    assertTrue(e.getMessage().contains("not empty"), e.getMessage());
    // An existing empty directory is fine.
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    backend.table("t").put(b(1), b(1));
    backend.restore(backend.snapshot(1, empty));
  }

  @Test
  void flippedByteIsRefusedAndContentUntouched() throws IOException {
    SnapshotHandle handle = sampleSnapshotThenMutate();
    Map<String, Map<String, String>> current = dump(backend);
    Path victim = largestFile(handle.directory());
    byte[] content = Files.readAllBytes(victim);
    content[content.length / 2] ^= 0x01;
    replaceFile(victim, content);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> backend.restore(handle));
    assertTrue(e.getMessage().contains(victim.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    assertEquals(current, dump(backend));
  }

  @Test
  void cutFileIsRefusedAndContentUntouched() throws IOException {
    SnapshotHandle handle = sampleSnapshotThenMutate();
    Map<String, Map<String, String>> current = dump(backend);
    Path victim = largestFile(handle.directory());
    byte[] content = Files.readAllBytes(victim);
    replaceFile(victim, Arrays.copyOf(content, content.length - 1));
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> backend.restore(handle));
    assertTrue(e.getMessage().contains(victim.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    assertEquals(current, dump(backend));
  }

  @Test
  void deletedFileIsRefusedAndContentUntouched() throws IOException {
    SnapshotHandle handle = sampleSnapshotThenMutate();
    Map<String, Map<String, String>> current = dump(backend);
    Path victim = largestFile(handle.directory());
    Files.delete(victim);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> backend.restore(handle));
    assertTrue(e.getMessage().contains(victim.getFileName().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("missing"), e.getMessage());
    assertEquals(current, dump(backend));
  }

  @Test
  void missingOrCorruptManifestIsRefusedAndContentUntouched() throws IOException {
    SnapshotHandle handle = sampleSnapshotThenMutate();
    Map<String, Map<String, String>> current = dump(backend);
    Path manifest = handle.directory().resolve(SnapshotManifest.FILE_NAME);
    byte[] original = Files.readAllBytes(manifest);

    Files.write(manifest, Arrays.copyOf(original, original.length / 2));
    CorruptSnapshotException cut =
        assertThrows(CorruptSnapshotException.class, () -> backend.restore(handle));
    assertTrue(cut.getMessage().contains(SnapshotManifest.FILE_NAME), cut.getMessage());

    byte[] flipped = original.clone();
    flipped[original.length / 2] ^= 0x02;
    Files.write(manifest, flipped);
    CorruptSnapshotException corrupt =
        assertThrows(CorruptSnapshotException.class, () -> backend.restore(handle));
    assertTrue(corrupt.getMessage().contains(SnapshotManifest.FILE_NAME), corrupt.getMessage());

    Files.delete(manifest);
    CorruptSnapshotException missing =
        assertThrows(CorruptSnapshotException.class, () -> backend.restore(handle));
    assertTrue(missing.getMessage().contains(SnapshotManifest.FILE_NAME), missing.getMessage());
    assertTrue(missing.getMessage().contains("incomplete"), missing.getMessage());

    assertThrows(
        CorruptSnapshotException.class,
        () -> backend.restore(new SnapshotHandle(engine(), 1, tmp.resolve("never-written"))));
    assertEquals(current, dump(backend));

    Files.write(manifest, original);
    backend.restore(handle); // intact again: restores
  }

  @Test
  void wrongEpochOrEngineIsRefused() {
    backend.table("t").put(b(1), b(1));
    SnapshotHandle handle = backend.snapshot(5, tmp.resolve("snap"));
    assertThrows(
        CorruptSnapshotException.class,
        () -> backend.restore(new SnapshotHandle(engine(), 6, handle.directory())));
    String other = engine().equals("heap") ? "rocksdb" : "heap";
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> backend.restore(new SnapshotHandle(other, 5, handle.directory())));
    assertTrue(e.getMessage().contains(engine()), e.getMessage());
  }

  // ---------------------------------------------------------------- against a model

  @Test
  void randomOperationsMatchAReferenceModel() {
    Random random = new Random(20261202);
    // The model keeps every key's bytes as the engine must return them from get(): a plain
    // value, or the concatenated ListFraming frames of a list.
    Map<String, TreeMap<byte[], byte[]>> model = new TreeMap<>();
    List<String> names = List.of("values", "lists");
    for (String name : names) {
      model.put(name, new TreeMap<>(KeyBytes::compare));
      backend.table(name);
    }
    List<SnapshotHandle> handles = new ArrayList<>();
    List<Map<String, TreeMap<byte[], byte[]>>> snapshotModels = new ArrayList<>();
    for (int step = 0; step < 6000; step++) {
      String name = names.get(random.nextInt(names.size()));
      StateTable table = backend.table(name);
      TreeMap<byte[], byte[]> content = model.get(name);
      byte[] key = randomKey(random);
      int op = random.nextInt(100);
      if (op < 30) {
        if (name.equals("values")) {
          byte[] value = randomBytes(random, random.nextInt(40));
          table.put(key, value);
          content.put(key, value);
        } else if (random.nextInt(3) > 0) {
          byte[] element = randomBytes(random, random.nextInt(200));
          table.append(key, element);
          content.merge(key, ListFraming.frame(element), KeyBytes::concat);
        } else {
          List<byte[]> elements = new ArrayList<>();
          for (int i = random.nextInt(4); i > 0; i--) {
            elements.add(randomBytes(random, random.nextInt(200)));
          }
          table.appendAll(key, elements);
          if (!elements.isEmpty()) {
            content.merge(key, ListFraming.frameAll(elements), KeyBytes::concat);
          }
        }
      } else if (op < 40) {
        table.delete(key);
        content.remove(key);
      } else if (op < 43) {
        byte[] to = randomKey(random);
        table.deleteRange(key, to);
        if (KeyBytes.compare(key, to) < 0) {
          content.subMap(key, true, to, false).clear();
        }
      } else if (op < 45) {
        byte[] prefix = Arrays.copyOf(key, Math.min(key.length, 1 + random.nextInt(2)));
        table.deletePrefix(prefix);
        content.keySet().removeIf(k -> startsWith(k, prefix));
      } else if (op < 65) {
        byte[] expected = content.get(key);
        assertArrayEquals(expected, table.get(key), "get at step " + step);
        if (name.equals("lists")) {
          assertEquals(
              hex(ListFraming.decode(expected)), hex(table.getList(key)), "list at step " + step);
        }
      } else if (op < 85) {
        byte[] from = random.nextInt(4) == 0 ? null : randomKey(random);
        byte[] to = random.nextInt(4) == 0 ? null : randomKey(random);
        assertEquals(
            expectedScan(content, from, to), actualScan(table.scan(from, to)), "scan " + step);
      } else if (op < 90) {
        byte[] prefix = Arrays.copyOf(key, Math.min(key.length, random.nextInt(3)));
        List<String> expected = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : content.entrySet()) {
          if (startsWith(e.getKey(), prefix)) {
            expected.add(HEX.formatHex(e.getKey()) + "=" + HEX.formatHex(e.getValue()));
          }
        }
        assertEquals(expected, actualScan(table.prefixScan(prefix)), "prefixScan " + step);
      } else if (op < 92) {
        if (handles.size() < 8) {
          handles.add(backend.snapshot(step, tmp.resolve("model-snapshots").resolve("s" + step)));
          snapshotModels.add(copyOf(model));
        }
      } else if (op == 92 && !handles.isEmpty()) {
        // About 60 restores over the run: enough to interleave with every kind of write.
        int pick = random.nextInt(handles.size());
        backend.restore(handles.get(pick));
        model = copyOf(snapshotModels.get(pick));
      }
    }
    for (String name : names) {
      assertEquals(
          expectedScan(model.get(name), null, null), actualScan(backend.table(name).iterator()));
    }
  }

  private static Map<String, TreeMap<byte[], byte[]>> copyOf(
      Map<String, TreeMap<byte[], byte[]>> model) {
    Map<String, TreeMap<byte[], byte[]>> copy = new TreeMap<>();
    model.forEach((name, content) -> copy.put(name, new TreeMap<>(content)));
    return copy;
  }

  private static byte[] randomKey(Random random) {
    // Few distinct bytes, including the sign boundary, so keys collide, nest as prefixes and
    // exercise unsigned order.
    int[] alphabet = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};
    byte[] key = new byte[random.nextInt(4)];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) alphabet[random.nextInt(alphabet.length)];
    }
    return key;
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static List<String> expectedScan(
      TreeMap<byte[], byte[]> content, byte[] from, byte[] to) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : content.entrySet()) {
      if ((from == null || KeyBytes.compare(e.getKey(), from) >= 0)
          && (to == null || KeyBytes.compare(e.getKey(), to) < 0)) {
        out.add(HEX.formatHex(e.getKey()) + "=" + HEX.formatHex(e.getValue()));
      }
    }
    return out;
  }

  private static List<String> actualScan(CloseableIterator<StateEntry> it) {
    List<String> out = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        StateEntry e = it.next();
        out.add(HEX.formatHex(e.key()) + "=" + HEX.formatHex(e.value()));
      }
    }
    return out;
  }

  private static List<String> hex(List<byte[]> list) {
    return list.stream().map(HEX::formatHex).toList();
  }

  // ---------------------------------------------------------------- lifecycle

  @Test
  void reopeningTheDirectoryAfterCloseRecoversTables() {
    assumeTrue(persistent(), "in-memory engine");
    fillSample(backend);
    Map<String, Map<String, String>> expected = dump(backend);
    backend.close();
    backend = open(dataDir());
    assertEquals(expected, dump(backend));
    assertTrue(backend.tableNames().containsAll(expected.keySet()));
  }

  @Test
  void reopeningAfterTheProcessWasKilledRecoversFlushedWrites() throws Exception {
    assumeTrue(persistent(), "in-memory engine");
    backend.close();
    backend = null;
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KillChild.class.getName());
    command.add(engine());
    command.add(dataDir().toString());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child did not exit");
    assertEquals(137, child.exitValue(), "child output:\n" + output);
    assertTrue(output.contains("READY"), output);

    backend = open(dataDir());
    StateTable values = backend.table("values");
    assertNull(values.get(KillChild.key("flushed", 0)));
    for (int i = 1; i < KillChild.FLUSHED; i++) {
      assertArrayEquals(
          ("v" + i).getBytes(StandardCharsets.UTF_8), values.get(KillChild.key("flushed", i)));
    }
    StateTable lists = backend.table("lists");
    for (int k = 0; k < 10; k++) {
      assertEquals(KillChild.FLUSHED / 10, lists.getList(KillChild.key("bag", k)).size());
    }
    assertUnflushedAfterKill(values);
    // The recovered directory takes new writes.
    values.put(b(1), b(1));
    assertArrayEquals(b(1), values.get(b(1)));
  }

  /**
   * What the engine promises about writes made after the last {@link StateBackend#flush} when the
   * process is killed; subclasses document their engine's exact behavior.
   */
  protected void assertUnflushedAfterKill(StateTable values) {}

  @Test
  void disposeDeletesTheBackendsFiles() throws IOException {
    fillSample(backend);
    SnapshotHandle handle = backend.snapshot(1, tmp.resolve("kept-snapshot"));
    backend.dispose();
    backend = null;
    assertTrue(!Files.exists(dataDir()) || isEmpty(dataDir()), "files left in " + dataDir());
    assertTrue(Files.exists(handle.directory().resolve(SnapshotManifest.FILE_NAME)));
    try (StateBackend fresh = open(dataDir())) {
      assertTrue(fresh.tableNames().isEmpty(), "tables survived dispose: " + fresh.tableNames());
      fresh.restore(handle); // the snapshot written elsewhere survived
      assertArrayEquals(sampleValue(1), fresh.table("values").get(b(1)));
    }
  }

  @Test
  void closeTwiceIsHarmless() {
    backend.table("t").put(b(1), b(1));
    backend.close();
    backend.close();
    backend = null;
  }

  // ---------------------------------------------------------------- helpers

  private SnapshotHandle sampleSnapshotThenMutate() {
    fillSample(backend);
    SnapshotHandle handle = backend.snapshot(1, tmp.resolve("snap"));
    backend.table("values").put(b(1), b(123));
    backend.table("values").put(b(77), b(77));
    return handle;
  }

  protected static void fillSample(StateBackend backend) {
    StateTable values = backend.table("values");
    for (int i = 0; i < 200; i++) {
      values.put(b(i), sampleValue(i));
    }
    values.put(b(0xff, 0xff), b(1));
    StateTable bags = backend.table("bags");
    for (int i = 0; i < 300; i++) {
      bags.append(b(i % 5), ("e" + i).getBytes(StandardCharsets.UTF_8));
    }
    byte[] blob = new byte[200_000];
    new Random(7).nextBytes(blob);
    backend.table("blobs").put(b(1), blob);
  }

  protected static byte[] sampleValue(int i) {
    return ("value-" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** Every table's content as hex strings, for whole-backend equality. */
  protected static Map<String, Map<String, String>> dump(StateBackend backend) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (String name : backend.tableNames()) {
      Map<String, String> content = new TreeMap<>();
      try (CloseableIterator<StateEntry> it = backend.table(name).iterator()) {
        while (it.hasNext()) {
          StateEntry e = it.next();
          content.put(HEX.formatHex(e.key()), HEX.formatHex(e.value()));
        }
      }
      out.put(name, content);
    }
    return out;
  }

  protected static byte[] b(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }

  protected static byte[] intKey(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  protected static List<String> keysOf(CloseableIterator<StateEntry> it) {
    List<String> keys = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        keys.add(HEX.formatHex(it.next().key()));
      }
    }
    return keys;
  }

  protected static int count(CloseableIterator<StateEntry> it) {
    int n = 0;
    try (it) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  private static List<String> strings(List<byte[]> list) {
    return list.stream().map(x -> new String(x, StandardCharsets.UTF_8)).toList();
  }

  /**
   * Corrupts a snapshot file the way a bad copy or disk does: a new file in its place. Editing in
   * place would also hit the live database where an engine hard-links snapshot files (RocksDB
   * checkpoints link immutable SST files).
   */
  private static void replaceFile(Path file, byte[] content) throws IOException {
    Files.delete(file);
    Files.write(file, content);
  }

  private static Path largestFile(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(p -> !p.getFileName().toString().equals(SnapshotManifest.FILE_NAME))
          .max((x, y) -> Long.compare(x.toFile().length(), y.toFile().length()))
          .orElseThrow();
    }
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }
}
