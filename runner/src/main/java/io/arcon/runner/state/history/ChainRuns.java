package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The runs of one operator instance in table {@value ChainLayout#RUNS_TABLE}. A run is stored as
 * <b>pages</b> (each a {@link ChainRun} of at most about {@link #PAGE_BYTES}, rows in key order,
 * the pages of a run in key order) plus a <b>directory row</b>:
 *
 * <pre>
 * 0x00 ts(sequence) nonce(8)               -&gt; minStamp(8) maxStamp(8) bytes(8)
 * 0x01 ts(sequence) nonce(8) lastRowKey    -&gt; a page
 * </pre>
 *
 * The sequence orders runs by when their writes were made (a row's entries replay run after run);
 * the random nonce keeps the runs of different instances apart when a rescale merges them; a page's
 * last row key lets a read seek to the page holding a row, so a chunk of a version reads only the
 * pages of its key range (a run stored whole was read whole by every chunk). The directory rows
 * sort before every page, so the runs are listed without reading a page.
 *
 * <p>Nothing is kept in memory: the table is the truth, so a restore of the backend (which replaces
 * the table) needs no notice. Single-threaded like its operator.
 */
final class ChainRuns {
  /** A page is cut once it reaches this size (at a row's end). */
  static final int PAGE_BYTES = 64 << 10;

  /** A run smaller than this is merged with the run written after it when that is no smaller. */
  static final long SMALL_RUN_BYTES = 1 << 20;

  private static final byte DIRECTORY = 0x00;
  private static final byte PAGE = 0x01;
  private static final int RUN_ID_BYTES = 16;

  /** A run, as its directory row tells. */
  record Run(byte[] id, long sequence, long minStamp, long maxStamp, long bytes) {
    /** {@code 0x01 ts(sequence) nonce}: the prefix of the run's page keys. */
    byte[] pagePrefix() {
      byte[] prefix = new byte[1 + RUN_ID_BYTES];
      prefix[0] = PAGE;
      System.arraycopy(id, 0, prefix, 1, RUN_ID_BYTES);
      return prefix;
    }
  }

  private final StateTable table;

  ChainRuns(StateBackend backend) {
    this.table = backend.table(ChainLayout.RUNS_TABLE);
  }

  /** Every run, oldest first. */
  List<Run> all() {
    List<Run> runs = new ArrayList<>();
    try (CloseableIterator<StateEntry> it = table.scan(new byte[] {DIRECTORY}, new byte[] {PAGE})) {
      while (it.hasNext()) {
        StateEntry row = it.next();
        byte[] key = row.key();
        byte[] value = row.value();
        if (key.length != 1 + RUN_ID_BYTES || value.length != 24) {
          throw new IllegalStateException(
              "Table "
                  + ChainLayout.RUNS_TABLE
                  + " has a directory row of "
                  + key.length
                  + " key and "
                  + value.length
                  + " value bytes, not a run's: dispose of the backend's state to start over");
        }
        runs.add(
            new Run(
                java.util.Arrays.copyOfRange(key, 1, key.length),
                OrderedBytes.readOrderedLong(key, 1),
                OrderedBytes.readRawLong(value, 0),
                OrderedBytes.readRawLong(value, 8),
                OrderedBytes.readRawLong(value, 16)));
      }
    }
    return runs;
  }

  /** Stores the run whose pages are {@code pages} (key order, none empty) as the newest run. */
  void add(List<byte[]> pages) {
    addAll(List.of(pages));
  }

  /**
   * Stores {@code runs} (each its pages, oldest first) as the newest runs, reading the directory
   * once for all of them (a flush writes a run per segment it holds).
   */
  void addAll(List<List<byte[]>> runs) {
    List<Run> existing = all();
    long next = existing.isEmpty() ? 0 : existing.get(existing.size() - 1).sequence() + 1;
    for (List<byte[]> pages : runs) {
      if (!pages.isEmpty()) {
        store(next++, pages);
      }
    }
  }

  /** Replaces {@code old} by the run of {@code pages} (same place in the order; none: dropped). */
  void replace(Run old, List<byte[]> pages) {
    drop(old);
    if (!pages.isEmpty()) {
      store(old.sequence(), pages);
    }
  }

  /** Drops every run. */
  void clear() {
    for (Run run : all()) {
      drop(run);
    }
  }

  /** The rows of {@code run} from the first whose key is &ge; {@code from} (null: all). */
  PagedRun open(Run run, byte[] from) {
    byte[] prefix = run.pagePrefix();
    byte[] start =
        from == null
            ? prefix
            : new OrderedBytes(prefix.length + from.length)
                .writeBytes(prefix)
                .writeBytes(from)
                .toByteArray();
    return new PagedRun(table.scan(start, KeyBytes.prefixEnd(prefix)), from);
  }

  /**
   * Merges the newest runs while the one before the newest is small and no larger than it (as a
   * binary counter adds): many small flushes (a snapshot or a version read each second) then leave
   * a few runs, each write rewritten about log2(small size / flush size) times, instead of a run
   * per flush for every version to merge.
   */
  void mergeSmallTail() {
    List<Run> runs = all();
    while (runs.size() >= 2) {
      Run newest = runs.get(runs.size() - 1);
      Run before = runs.get(runs.size() - 2);
      if (before.bytes() >= SMALL_RUN_BYTES || before.bytes() > newest.bytes()) {
        return;
      }
      List<byte[]> merged;
      try (PagedRun older = open(before, null);
          PagedRun newer = open(newest, null)) {
        merged = merge(List.of(older, newer));
      }
      drop(newest);
      replace(before, merged);
      runs = all();
    }
  }

  /**
   * The pages of one run holding the rows of {@code runs} (oldest first), entries in that order.
   */
  static List<byte[]> merge(List<PagedRun> runs) {
    Pages out = new Pages();
    RowMerge merge = new RowMerge(runs);
    while (merge.next()) {
      RowCursor row = merge.row();
      out.startRow(row.keyBytes(), row.keyOffset(), row.keyLength());
      for (int i = 0; i < merge.sourceCount(); i++) {
        ((PagedRun) merge.source(i)).page().copyEntriesTo(out.writer());
      }
      out.endRow();
    }
    return out.finish();
  }

  private void store(long sequence, List<byte[]> pages) {
    byte[] id =
        new OrderedBytes(RUN_ID_BYTES)
            .writeOrderedLong(sequence)
            .writeRawLong(ThreadLocalRandom.current().nextLong())
            .toByteArray();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long bytes = 0;
    for (byte[] page : pages) {
      min = Math.min(min, ChainRun.minStamp(page));
      max = Math.max(max, ChainRun.maxStamp(page));
      bytes += page.length;
      table.put(
          new OrderedBytes(1 + RUN_ID_BYTES + 64)
              .writeByte(PAGE)
              .writeBytes(id)
              .writeBytes(ChainRun.lastRowKey(page))
              .toByteArray(),
          page);
    }
    table.put(
        new OrderedBytes(1 + RUN_ID_BYTES).writeByte(DIRECTORY).writeBytes(id).toByteArray(),
        new OrderedBytes(24).writeRawLong(min).writeRawLong(max).writeRawLong(bytes).toByteArray());
  }

  private void drop(Run run) {
    byte[] prefix = run.pagePrefix();
    table.deleteRange(prefix, KeyBytes.prefixEnd(prefix));
    byte[] directory = prefix.clone();
    directory[0] = DIRECTORY;
    table.delete(directory);
  }

  /**
   * A row of {@value ChainLayout#RUNS_TABLE} as an instance owning only the keys {@code keep}
   * accepts restores it: a directory row as it is, a page with only the rows of those keys (null
   * when none is left).
   */
  static byte[] rowWithKeys(byte[] key, byte[] value, java.util.function.Predicate<byte[]> keep) {
    return key.length > 0 && key[0] == DIRECTORY ? value : ChainRun.filterByKey(value, keep);
  }

  /** Whether {@code key} is a page's (its value a {@link ChainRun}). */
  static boolean isPage(byte[] key) {
    return key.length > 0 && key[0] == PAGE;
  }

  /** Builds a run's pages row by row: a page is cut after the row that makes it reach the limit. */
  static final class Pages {
    private final ChainRun.Writer writer = new ChainRun.Writer();
    private final List<byte[]> pages = new ArrayList<>();

    void startRow(byte[] key, int offset, int length) {
      writer.startRow(key, offset, length);
    }

    ChainRun.Writer writer() {
      return writer;
    }

    void endRow() {
      writer.endRow();
      if (writer.size() >= PAGE_BYTES) {
        pages.add(writer.finish());
      }
    }

    List<byte[]> finish() {
      if (!writer.isEmpty()) {
        pages.add(writer.finish());
      }
      return pages;
    }
  }
}
