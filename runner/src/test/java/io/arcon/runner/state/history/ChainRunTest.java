package io.arcon.runner.state.history;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ChainRun}'s writer and cursor; runs stored in pages and merged ({@link ChainRuns}). */
class ChainRunTest {

  @Test
  void aCursorSeeksToTheFirstRowAtOrAfterAKey() {
    TreeMap<String, List<byte[]>> rows = randomRows(new Random(1), 2_000);
    byte[] run = write(rows);
    assertEquals(rows.size(), ChainRun.rowCount(run));
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (List<byte[]> entries : rows.values()) {
      for (byte[] entry : entries) {
        min = Math.min(min, ChainLayout.entryStamp(entry));
        max = Math.max(max, ChainLayout.entryStamp(entry));
      }
    }
    assertEquals(min, ChainRun.minStamp(run));
    assertEquals(max, ChainRun.maxStamp(run));
    assertEquals(render(rows), render(read(run, null)));
    Random random = new Random(2);
    ChainRun.Cursor cursor = new ChainRun.Cursor(run);
    for (int i = 0; i < 500; i++) {
      byte[] probe = new byte[random.nextInt(4)];
      random.nextBytes(probe);
      cursor.seek(probe);
      String expected = rows.ceilingKey(hex(probe));
      if (expected == null) {
        assertFalse(cursor.valid());
      } else {
        assertEquals(expected, hex(cursor.key()));
        assertEquals(rows.get(expected).size(), cursor.entryCount());
      }
    }
  }

  @Test
  void runsAreStoredInPagesThatAReadFromAnyRowFinds(@TempDir Path tmp) {
    try (StateBackend backend = StateBackends.open(StateBackendConfig.of("heap", tmp))) {
      ChainRuns runs = new ChainRuns(backend);
      TreeMap<String, List<byte[]>> rows = randomRows(new Random(5), 20_000);
      runs.add(pages(rows));
      ChainRuns.Run run = runs.all().get(0);
      assertTrue(run.bytes() > 4 * ChainRuns.PAGE_BYTES, "several pages: " + run.bytes());
      try (PagedRun all = runs.open(run, null)) {
        assertEquals(render(rows), render(read(all)));
      }
      Random random = new Random(6);
      for (int i = 0; i < 200; i++) {
        byte[] from = new byte[1 + random.nextInt(12)];
        random.nextBytes(from);
        from[0] = 0; // mostly within the rows' range, whose keys start with lp("count")
        try (PagedRun tail = runs.open(run, from)) {
          assertEquals(render(new TreeMap<>(rows.tailMap(hex(from), true))), render(read(tail)));
        }
      }
    }
  }

  /**
   * A restore at another parallelism keeps each page's rows of the owned keys only, under the same
   * keys: a read from any row still finds them, past pages that lost their rows at or after it.
   */
  @Test
  void pagesRestoredWithTheOwnedKeysOnlyReadFromAnyRow(@TempDir Path tmp) {
    try (StateBackend source = StateBackends.open(StateBackendConfig.of("heap", tmp.resolve("a")));
        StateBackend target = StateBackends.open(StateBackendConfig.of("heap", tmp.resolve("b")))) {
      TreeMap<String, List<byte[]>> rows = randomRows(new Random(7), 20_000);
      List<byte[]> pages = pages(rows);
      new ChainRuns(source).add(pages);
      java.util.function.Predicate<byte[]> owned = key -> (key[key.length - 1] & 3) == 1;
      try (io.arcon.state.CloseableIterator<io.arcon.state.StateEntry> it =
          source.table(ChainLayout.RUNS_TABLE).iterator()) {
        while (it.hasNext()) {
          io.arcon.state.StateEntry row = it.next();
          byte[] kept = ChainLayout.runRowWithKeys(row.key(), row.value(), owned);
          if (kept != null) {
            target.table(ChainLayout.RUNS_TABLE).put(row.key(), kept);
          }
        }
      }
      TreeMap<String, List<byte[]>> expected = new TreeMap<>();
      rows.forEach(
          (key, entries) -> {
            byte[] rowKey = java.util.HexFormat.of().parseHex(key);
            if (owned.test(
                OrderedBytes.readLengthPrefixed(
                    rowKey, OrderedBytes.skipLengthPrefixed(rowKey, 0)))) {
              expected.put(key, entries);
            }
          });
      ChainRuns restored = new ChainRuns(target);
      ChainRuns.Run run = restored.all().get(0);
      // From each page's last row (whose page has often kept no row at or after it), and at random.
      List<byte[]> froms = new ArrayList<>();
      for (byte[] page : pages) {
        froms.add(ChainRun.lastRowKey(page));
      }
      Random random = new Random(8);
      for (int i = 0; i < 200; i++) {
        byte[] from = new byte[1 + random.nextInt(12)];
        random.nextBytes(from);
        from[0] = 0;
        froms.add(from);
      }
      assertTrue(pages.size() > 4, "pages: " + pages.size());
      for (byte[] from : froms) {
        try (PagedRun tail = restored.open(run, from)) {
          assertEquals(
              render(new TreeMap<>(expected.tailMap(hex(from), true))), render(read(tail)));
        }
      }
    }
  }

  @Test
  void mergedRunsHoldEveryRowOnceWithTheOlderRunsEntriesFirst(@TempDir Path tmp) {
    try (StateBackend backend = StateBackends.open(StateBackendConfig.of("heap", tmp))) {
      ChainRuns runs = new ChainRuns(backend);
      Random random = new Random(3);
      TreeMap<String, List<byte[]>> expected = new TreeMap<>();
      for (int p = 0; p < 4; p++) {
        // Each run larger than the one before, as mergeSmallTail merges a run into a larger one.
        TreeMap<String, List<byte[]>> rows = randomRows(random, 3_000 + 1_000 * p);
        runs.add(pages(rows));
        rows.forEach(
            (key, entries) ->
                expected.computeIfAbsent(key, k -> new ArrayList<>()).addAll(entries));
      }
      List<PagedRun> open = new ArrayList<>();
      for (ChainRuns.Run run : runs.all()) {
        open.add(runs.open(run, null));
      }
      List<byte[]> merged = ChainRuns.merge(open);
      open.forEach(PagedRun::close);
      TreeMap<String, List<byte[]>> actual = new TreeMap<>();
      for (byte[] page : merged) {
        actual.putAll(read(page, null));
      }
      assertEquals(render(expected), render(actual));
      // Merging the small runs at the tail leaves one run that reads the same.
      runs.mergeSmallTail();
      assertEquals(1, runs.all().size());
      try (PagedRun one = runs.open(runs.all().get(0), null)) {
        assertEquals(render(expected), render(read(one)));
      }
    }
  }

  private static List<byte[]> pages(TreeMap<String, List<byte[]>> rows) {
    ChainRuns.Pages pages = new ChainRuns.Pages();
    rows.forEach(
        (key, entries) -> {
          byte[] row = java.util.HexFormat.of().parseHex(key);
          pages.startRow(row, 0, row.length);
          for (byte[] entry : entries) {
            pages.writer().entry(entry, 0, entry.length);
          }
          pages.endRow();
        });
    return pages.finish();
  }

  private static TreeMap<String, List<byte[]>> read(PagedRun run) {
    TreeMap<String, List<byte[]>> rows = new TreeMap<>();
    for (; run.valid(); run.next()) {
      assertNull(rows.put(hex(run.page().key()), entries(run.page())), "a row twice");
    }
    return rows;
  }

  @Test
  void anExactStatesEntriesAreStoredWithoutTheirUpdatedAtAndTheirStampAsADelta() {
    byte[] key = {1, 2, 3};
    List<byte[]> entries = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      long stamp = 1_700_000_000_000L + 10 * i;
      byte[] op = new byte[9]; // a counter's put: updated_at (the stamp) and one value byte
      ChainWriteBufferTest.stampOp(op, stamp);
      op[8] = (byte) i;
      entries.add(ChainLayout.entry(stamp, op));
    }
    TreeMap<String, List<byte[]>> rows = new TreeMap<>();
    rows.put(hex(key), entries);
    byte[] run = write(rows);
    assertEquals(render(rows), render(read(run, null)));
    // Per entry: a header byte, the stamp's delta (6 bytes for the first, from 0; then 1 byte for
    // 10 ms) and the value byte, instead of 4 + 8 + 9 bytes.
    int entryBytes = (1 + 6 + 1) + 99 * (1 + 1 + 1);
    assertEquals(ChainRun.HEADER_BYTES + ChainRun.rowBytes(key.length, entryBytes) + 4, run.length);
  }

  @Test
  void filteringByKeyKeepsTheOwnedRowsOnly() {
    TreeMap<String, List<byte[]>> rows = randomRows(new Random(4), 500);
    byte[] run = write(rows);
    assertSame(run, ChainRun.filterByKey(run, key -> true));
    assertNull(ChainRun.filterByKey(run, key -> false));
    byte[] even = ChainRun.filterByKey(run, key -> (key[0] & 1) == 0);
    TreeMap<String, List<byte[]>> expected = new TreeMap<>();
    rows.forEach(
        (key, entries) -> {
          byte[] rowKey = java.util.HexFormat.of().parseHex(key);
          byte[] encodedKey =
              OrderedBytes.readLengthPrefixed(rowKey, OrderedBytes.skipLengthPrefixed(rowKey, 0));
          if ((encodedKey[0] & 1) == 0) {
            expected.put(key, entries);
          }
        });
    assertTrue(expected.size() > 0 && expected.size() < rows.size());
    assertEquals(render(expected), render(read(even, null)));
  }

  @Test
  void somethingElseIsRefusedClearly() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new ChainRun.Cursor(new byte[40]));
    assertTrue(e.getMessage().contains("not a run"), e.getMessage());
  }

  @Test
  void aDamagedPageIsRefusedClearlyNotReadAsGarbage() {
    byte[] run = write(randomRows(new Random(5), 50));
    // An entry's header claiming more bytes than the page has.
    byte[] longEntry = run.clone();
    ChainRun.Cursor cursor = new ChainRun.Cursor(longEntry);
    cursor.seek(null);
    int firstEntry = ChainRun.HEADER_BYTES + 4 + cursor.keyLength() + 4;
    longEntry[firstEntry] = (byte) 0xFF;
    longEntry[firstEntry + 1] = (byte) 0xFF;
    longEntry[firstEntry + 2] = 0x7F;
    assertDamaged(() -> read(longEntry, null));
    // Varints that never end.
    byte[] endless = run.clone();
    Arrays.fill(endless, firstEntry, endless.length - 4 * ChainRun.rowCount(run), (byte) 0x80);
    assertDamaged(() -> read(endless, null));
    // A key length past the rows, and an index that does not end the page.
    byte[] longKey = run.clone();
    ChainRun.writeInt(longKey, ChainRun.HEADER_BYTES, 1 << 20);
    assertDamaged(() -> read(longKey, null));
    byte[] truncated = Arrays.copyOf(run, run.length - 2);
    assertDamaged(() -> new ChainRun.Cursor(truncated));
  }

  private static void assertDamaged(org.junit.jupiter.api.function.Executable read) {
    IllegalStateException e = assertThrows(IllegalStateException.class, read);
    assertTrue(e.getMessage().contains("damaged page"), e.getMessage());
  }

  /** Rows {@code lp(id) lp(key) lp(ns) lp(suffix)} (hex) to entries of random stamps and ops. */
  private static TreeMap<String, List<byte[]>> randomRows(Random random, int count) {
    TreeMap<String, List<byte[]>> rows = new TreeMap<>();
    while (rows.size() < count) {
      byte[] key = new byte[1 + random.nextInt(3)];
      random.nextBytes(key);
      byte[] row =
          new OrderedBytes(32)
              .writeLengthPrefixed("count")
              .writeLengthPrefixed(key)
              .writeLengthPrefixed("/")
              .writeLengthPrefixed(new byte[random.nextInt(2)])
              .toByteArray();
      List<byte[]> entries = new ArrayList<>();
      for (int e = 1 + random.nextInt(4); e > 0; e--) {
        byte[] op = new byte[random.nextInt(4) * 4];
        random.nextBytes(op);
        long stamp =
            switch (random.nextInt(4)) {
              case 0 -> Long.MIN_VALUE + random.nextInt(3);
              case 1 -> Long.MAX_VALUE - random.nextInt(3);
              default -> random.nextLong();
            };
        if (op.length >= 8 && random.nextBoolean()) {
          ChainWriteBufferTest.stampOp(op, stamp); // left out of the page, restored on reading
        }
        entries.add(ChainLayout.entry(stamp, op));
      }
      rows.put(hex(row), entries);
    }
    return rows;
  }

  private static byte[] write(TreeMap<String, List<byte[]>> rows) {
    ChainRun.Writer writer = new ChainRun.Writer();
    rows.forEach(
        (key, entries) -> {
          byte[] row = java.util.HexFormat.of().parseHex(key);
          writer.startRow(row, 0, row.length);
          for (byte[] entry : entries) {
            writer.entry(entry, 0, entry.length);
          }
          writer.endRow();
        });
    byte[] run = writer.finish();
    assertTrue(writer.isEmpty());
    return run;
  }

  private static TreeMap<String, List<byte[]>> read(byte[] run, byte[] from) {
    TreeMap<String, List<byte[]>> rows = new TreeMap<>();
    ChainRun.Cursor cursor = new ChainRun.Cursor(run);
    for (cursor.seek(from); cursor.valid(); cursor.next()) {
      assertNull(rows.put(hex(cursor.key()), entries(cursor)), "a row twice");
    }
    return rows;
  }

  /** Copies of the entries of {@code cursor}'s current row. */
  private static List<byte[]> entries(ChainRun.Cursor cursor) {
    List<byte[]> entries = new ArrayList<>();
    cursor.forEachEntry(
        (bytes, offset, length) -> entries.add(Arrays.copyOfRange(bytes, offset, offset + length)));
    return entries;
  }

  private static TreeMap<String, List<String>> render(TreeMap<String, List<byte[]>> rows) {
    TreeMap<String, List<String>> out = new TreeMap<>();
    rows.forEach((key, entries) -> out.put(key, entries.stream().map(ChainRunTest::hex).toList()));
    return out;
  }

  private static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }

  static {
    // Hex of unsigned bytes sorts as the bytes do, so TreeMap<String> orders rows as runs do.
    assertArrayEquals(new byte[] {(byte) 0xff}, java.util.HexFormat.of().parseHex("ff"));
  }
}
