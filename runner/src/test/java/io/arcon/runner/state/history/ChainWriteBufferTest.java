package io.arcon.runner.state.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.OrderedBytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A flushed {@link ChainWriteBuffer} leaves runs that replay as appending each write to its row
 * directly, in write order, would have: random writes (put rows, list rows, deletes) over rows of
 * two state ids and keys of many lengths, stamps crossing segments, repeating and going backwards,
 * flushed at random points and when full. Rows are compared as a replay sees them: entries in stamp
 * order (stable), and of a put row's entries at one stamp only the last.
 */
class ChainWriteBufferTest {
  private static final long SEGMENT_MILLIS = 100;

  /** Two state ids, whose {@code lp(id)} order differs from their recorder order. */
  private static final String[] IDS = {"zeta", "alpha-longer"};

  private static final int[] ID_PART_LENGTHS = {4 + 4, 4 + 12};

  /** {@code lp("zeta")} sorts before {@code lp("alpha-longer")}: shorter length first. */
  private static final int[] ID_RANKS = {0, 1};

  @ParameterizedTest
  @ValueSource(ints = {3, 600, 5000}) // 5000: keys too long for the sort key, sorted by comparison
  void flushedWritesReplayAsDirectAppendsInWriteOrder(int maxKeyLength) {
    ChainWriteBuffer buffer = new ChainWriteBuffer(SEGMENT_MILLIS);
    List<byte[]> runs = new ArrayList<>();
    Random random = new Random(42 + maxKeyLength);
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < 300; r++) {
      byte[] key = new byte[1 + random.nextInt(maxKeyLength)];
      random.nextBytes(key);
      byte[] suffix = new byte[r % 3 == 0 ? 0 : 1 + random.nextInt(3)];
      random.nextBytes(suffix);
      rows.add(new Row(r % 2, key, suffix, isListRow(r)));
    }
    Map<String, List<byte[]>> direct = new TreeMap<>();
    long stamp = 0;
    int flushes = 0;
    for (int w = 0; w < 200_000; w++) {
      Row row = rows.get(random.nextInt(rows.size()));
      // Mostly forwards, sometimes back (a timer firing after a later element), often repeated.
      stamp += random.nextInt(10) < 3 ? 0 : random.nextInt(7) - 1;
      byte[] op = new byte[random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(12)];
      random.nextBytes(op);
      if (op.length >= 8 && random.nextBoolean()) {
        stampOp(op, stamp); // an exact state's op: updated_at is the stamp, left out in pages
      }
      direct
          .computeIfAbsent(HexFormat.of().formatHex(row.chainKey()), k -> new ArrayList<>())
          .add(ChainLayout.entry(stamp, op));
      buffer.add(row.recorder, row.rowKey(), row.addressLength(), stamp, op, row.listRow);
      if (buffer.isFull() || random.nextInt(20_000) == 0) {
        buffer.flushTo(ID_PART_LENGTHS, ID_RANKS, runs::addAll);
        flushes++;
      }
    }
    buffer.flushTo(ID_PART_LENGTHS, ID_RANKS, runs::addAll);
    assertTrue(buffer.isEmpty());
    assertTrue(flushes >= 3, "flushes: " + flushes);
    Map<String, List<byte[]>> fromRuns = new TreeMap<>();
    int entriesInRuns = 0;
    for (byte[] run : runs) {
      ChainRun.Cursor cursor = new ChainRun.Cursor(run);
      byte[] previous = null;
      long segment = Long.MIN_VALUE;
      for (cursor.seek(null); cursor.valid(); cursor.next()) {
        byte[] key = cursor.key();
        if (previous != null) {
          assertTrue(Arrays.compareUnsigned(previous, key) < 0, "rows out of key order");
        }
        previous = key;
        List<byte[]> entries =
            fromRuns.computeIfAbsent(HexFormat.of().formatHex(key), k -> new ArrayList<>());
        for (cursor.startEntries(); cursor.nextEntry(); ) {
          byte[] entry = Arrays.copyOf(cursor.entryBytes(), cursor.entryLength());
          long entrySegment = ChainLayout.segmentOf(ChainLayout.entryStamp(entry), SEGMENT_MILLIS);
          assertTrue(segment == Long.MIN_VALUE || segment == entrySegment, "a run per segment");
          segment = entrySegment;
          entries.add(entry);
          entriesInRuns++;
        }
      }
      assertTrue(ChainRun.minStamp(run) <= ChainRun.maxStamp(run));
    }
    assertEquals(replayed(direct, rows), replayed(fromRuns, rows));
    // The buffer did drop superseded writes.
    assertTrue(entriesInRuns < 200_000, "nothing was dropped");
  }

  /**
   * A flush's runs hold rows in chain-key order, also when keys share a prefix longer than the
   * flush's sort key, and come in segment order (also for more segments than the sort key holds).
   */
  @ParameterizedTest
  @ValueSource(ints = {1_000, 30_000})
  void aFlushWritesRunsBySegmentAndRowsInKeyOrder(int stampRange) {
    ChainWriteBuffer buffer = new ChainWriteBuffer(SEGMENT_MILLIS);
    Random random = new Random(7);
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < 500; r++) {
      byte[] key =
          String.format("user-with-a-long-common-prefix-%05d", random.nextInt(100_000))
              .getBytes(StandardCharsets.UTF_8);
      rows.add(new Row(r % 2, key, new byte[0], true));
    }
    java.util.Set<String> groups = new java.util.HashSet<>();
    for (int w = 0; w < 20_000; w++) {
      Row row = rows.get(random.nextInt(rows.size()));
      long stamp = random.nextInt(stampRange); // 10 or 300 segments, written in no order
      buffer.add(row.recorder, row.rowKey(), row.addressLength(), stamp, new byte[] {1}, true);
      groups.add(
          HexFormat.of().formatHex(row.chainKey())
              + String.format("@%04d", ChainLayout.segmentOf(stamp, SEGMENT_MILLIS)));
    }
    List<byte[]> runs = new ArrayList<>();
    buffer.flushTo(ID_PART_LENGTHS, ID_RANKS, runs::addAll);
    List<String> written = new ArrayList<>();
    for (byte[] run : runs) {
      String segment =
          String.format("@%05d", ChainLayout.segmentOf(ChainRun.minStamp(run), SEGMENT_MILLIS));
      ChainRun.Cursor cursor = new ChainRun.Cursor(run);
      for (cursor.seek(null); cursor.valid(); cursor.next()) {
        written.add(segment + HexFormat.of().formatHex(cursor.key()));
      }
    }
    List<String> sorted = new ArrayList<>(written);
    java.util.Collections.sort(sorted); // hex of unsigned bytes sorts as the bytes do
    assertEquals(sorted, written);
    assertEquals(groups.size(), written.size());
  }

  private static boolean isListRow(int rowIndex) {
    return rowIndex % 4 < 2;
  }

  /** A row of state id {@code IDS[recorder]}: {@code lp(key) lp(ns) lp(id) suffix}. */
  private record Row(int recorder, byte[] key, byte[] suffix, boolean listRow) {
    private static final byte[] NAMESPACE = "/".getBytes(StandardCharsets.UTF_8);

    byte[] rowKey() {
      return new OrderedBytes(64)
          .writeLengthPrefixed(key)
          .writeLengthPrefixed(NAMESPACE)
          .writeLengthPrefixed(IDS[recorder])
          .writeBytes(suffix)
          .toByteArray();
    }

    int addressLength() {
      return rowKey().length - suffix.length;
    }

    byte[] chainKey() {
      return new OrderedBytes(64)
          .writeLengthPrefixed(IDS[recorder])
          .writeLengthPrefixed(key)
          .writeLengthPrefixed(NAMESPACE)
          .writeLengthPrefixed(suffix)
          .toByteArray();
    }
  }

  /**
   * Every row's entries (hex) in stamp order, keeping write order at equal stamps; of a put row's
   * entries at one stamp only the last (which a replay takes).
   */
  private static Map<String, List<String>> replayed(
      Map<String, List<byte[]>> byRow, List<Row> rows) {
    Map<String, Boolean> listRow = new LinkedHashMap<>();
    for (Row row : rows) {
      listRow.put(HexFormat.of().formatHex(row.chainKey()), row.listRow);
    }
    Map<String, List<String>> out = new TreeMap<>();
    byRow.forEach(
        (key, entries) -> {
          List<byte[]> sorted = new ArrayList<>(entries);
          sorted.sort(Comparator.comparingLong(ChainLayout::entryStamp));
          List<String> kept = new ArrayList<>();
          for (int i = 0; i < sorted.size(); i++) {
            boolean superseded =
                !listRow.get(key)
                    && i + 1 < sorted.size()
                    && ChainLayout.entryStamp(sorted.get(i + 1))
                        == ChainLayout.entryStamp(sorted.get(i));
            if (!superseded) {
              kept.add(HexFormat.of().formatHex(sorted.get(i)));
            }
          }
          out.put(key, kept);
        });
    return out;
  }

  /** Writes {@code stamp} as the raw long an op's {@code updated_at} starts with. */
  static void stampOp(byte[] op, long stamp) {
    for (int i = 0; i < 8; i++) {
      op[i] = (byte) (stamp >>> (56 - 8 * i));
    }
  }
}
