package io.arcon.runner.state.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A flushed {@link ChainWriteBuffer} leaves chains that replay as appending each write directly, in
 * write order, would have: random writes (put rows, list rows, deletes) over rows of several key
 * lengths, stamps crossing segments, repeating and going backwards, flushed at random points and
 * when full. Put rows' chains are compared as a replay sees them: of consecutive entries at one
 * stamp only the last.
 */
class ChainWriteBufferTest {
  private static final long SEGMENT_MILLIS = 100;

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void flushedWritesReplayAsDirectAppendsInWriteOrder(String engine) {
    try (StateBackend backend =
        StateBackends.open(StateBackendConfig.of(engine, tmp.resolve(engine)))) {
      StateTable direct = backend.table("direct");
      StateTable buffered = backend.table("buffered");
      ChainWriteBuffer buffer = new ChainWriteBuffer(SEGMENT_MILLIS);
      ChainWriteBuffer.Chains chains =
          (recorder, rowKey, offset, length, addressLength, segment, entries) ->
              buffered.appendAll(key(rowKey, offset, length, addressLength, segment), entries);
      Random random = new Random(42);
      List<byte[]> rows = new ArrayList<>();
      for (int r = 0; r < 300; r++) {
        byte[] row = new byte[4 + random.nextInt(40)];
        random.nextBytes(row);
        rows.add(row);
      }
      long stamp = 0;
      int flushes = 0;
      int dropped = 0;
      for (int w = 0; w < 200_000; w++) {
        int r = random.nextInt(rows.size());
        byte[] row = rows.get(r);
        int addressLength = row.length - 2;
        // Mostly forwards, sometimes back (a timer firing after a later element), often repeated.
        stamp += random.nextInt(10) < 3 ? 0 : random.nextInt(7) - 1;
        // A row is a put row or a list row for good, as a state id's rows are.
        boolean keepAll = isListRow(r);
        byte[] op = new byte[random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(12)];
        random.nextBytes(op);
        long segment = ChainLayout.segmentOf(stamp, SEGMENT_MILLIS);
        direct.append(
            key(row, 0, row.length, addressLength, segment), ChainLayout.entry(stamp, op));
        buffer.add(0, row, addressLength, stamp, op, keepAll);
        if (buffer.isFull() || random.nextInt(20_000) == 0) {
          buffer.flushTo(chains);
          flushes++;
        }
      }
      buffer.flushTo(chains);
      assertTrue(buffer.isEmpty());
      assertTrue(flushes >= 3, "flushes: " + flushes);
      Map<String, List<String>> expected = replayed(direct, rows);
      assertTrue(expected.size() > rows.size(), "rows times segments: " + expected.size());
      assertEquals(expected, replayed(buffered, rows));
      // The buffer did drop superseded writes: its chains are shorter than the direct ones.
      assertTrue(entries(buffered) < entries(direct), "nothing was dropped");
    }
  }

  /**
   * A flush appends rows of one key length in key order, and a row's segments in time order, also
   * when the keys share a prefix longer than the flush's sort key (neighbouring chains are appended
   * one after the other: warm paths in an ordered index, pages in a B-tree).
   */
  @org.junit.jupiter.api.Test
  void aFlushAppendsRowsInKeyOrderAndARowsSegmentsInTimeOrder() {
    ChainWriteBuffer buffer = new ChainWriteBuffer(SEGMENT_MILLIS);
    Random random = new Random(7);
    List<String> rows = new ArrayList<>();
    for (int r = 0; r < 500; r++) {
      rows.add(String.format("user-with-a-long-common-prefix-%05d", random.nextInt(100_000)));
    }
    java.util.Set<String> groups = new java.util.HashSet<>();
    for (int w = 0; w < 20_000; w++) {
      String rowText = rows.get(random.nextInt(rows.size()));
      byte[] row = rowText.getBytes(StandardCharsets.UTF_8);
      long stamp = random.nextInt(1_000); // ten segments, written in no order
      buffer.add(0, row, row.length, stamp, new byte[] {1}, true);
      groups.add(rowText + String.format("@%04d", ChainLayout.segmentOf(stamp, SEGMENT_MILLIS)));
    }
    List<String> appended = new ArrayList<>();
    buffer.flushTo(
        (recorder, rowKey, offset, length, addressLength, segment, entries) ->
            appended.add(
                new String(rowKey, offset, length, StandardCharsets.UTF_8)
                    + String.format("@%04d", segment)));
    List<String> sorted = new ArrayList<>(appended);
    java.util.Collections.sort(sorted);
    assertEquals(sorted, appended);
    assertEquals(groups, new java.util.HashSet<>(appended));
    assertEquals(groups.size(), appended.size());
  }

  private static boolean isListRow(int rowIndex) {
    return rowIndex % 2 == 0;
  }

  /** A stand-in chain key: the row key, where its address ends, and the segment. */
  private static byte[] key(byte[] bytes, int offset, int length, int addressLength, long segment) {
    return new OrderedBytes(length + 12)
        .writeBytes(bytes, offset, length)
        .writeInt(addressLength)
        .writeOrderedLong(segment)
        .toByteArray();
  }

  /**
   * Every chain's entries (hex), those of put rows without an entry followed by one of the same
   * stamp (which a replay ignores).
   */
  private static Map<String, List<String>> replayed(StateTable table, List<byte[]> rows) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    HexFormat hex = HexFormat.of();
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      while (it.hasNext()) {
        StateEntry e = it.next();
        boolean putRow = !isListRow(rowIndexOf(e.key(), rows));
        List<byte[]> entries = e.elements();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
          boolean superseded =
              putRow
                  && i + 1 < entries.size()
                  && ChainLayout.entryStamp(entries.get(i + 1))
                      == ChainLayout.entryStamp(entries.get(i));
          if (!superseded) {
            kept.add(hex.formatHex(entries.get(i)));
          }
        }
        out.put(hex.formatHex(e.key()), kept);
      }
    }
    return out;
  }

  private static int entries(StateTable table) {
    int n = 0;
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      while (it.hasNext()) {
        n += it.next().elements().size();
      }
    }
    return n;
  }

  private static int rowIndexOf(byte[] chainKey, List<byte[]> rows) {
    for (int r = 0; r < rows.size(); r++) {
      byte[] row = rows.get(r);
      if (chainKey.length == row.length + 12
          && Arrays.equals(chainKey, 0, row.length, row, 0, row.length)) {
        return r;
      }
    }
    throw new AssertionError("no row for chain key " + HexFormat.of().formatHex(chainKey));
  }
}
