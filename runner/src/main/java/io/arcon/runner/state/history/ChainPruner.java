package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One pass of {@link StateHistory#prune}: folds the entries with chain stamp &lt; horizon of every
 * run that holds any into their rows' bases (see {@link ChainLayout}), dropping a base when its row
 * does not exist at the horizon.
 *
 * <p>Cost: reads only the runs whose smallest stamp is below the horizon, merged by row; writes one
 * base per row they touch (a put row's base is its last entry below the horizon; a list row's base
 * is extended with the new elements, or restarted after a delete). A run that also holds entries at
 * or after the horizon keeps them, rewritten in its place in the order of runs; with horizons on
 * segment boundaries (as the owner prunes) no run does, and the folded runs are dropped whole.
 *
 * <p>Rows of state ids that are not exported (a pipeline restarted with another export
 * configuration) are left in their runs: their row kind, hence how to fold them, is not known.
 */
final class ChainPruner {
  private final StateTable history;
  private final ChainRuns runs;
  private final Map<String, ExportedState> states;
  private final long horizonMillis;

  /** {@code lp(id)} and state of the last row's id, so a run of rows looks the id up once. */
  private byte[] lastIdPart;

  private ExportedState lastIdState;

  /** The entry a put row's fold keeps so far (a copy, as a cursor reuses its entry buffer). */
  private byte[] last = new byte[64];

  ChainPruner(
      StateTable history, ChainRuns runs, Map<String, ExportedState> states, long horizonMillis) {
    this.history = history;
    this.runs = runs;
    this.states = states;
    this.horizonMillis = horizonMillis;
  }

  void run() {
    List<ChainRuns.Run> below = new ArrayList<>();
    for (ChainRuns.Run run : runs.all()) {
      if (run.minStamp() < horizonMillis) {
        below.add(run);
      }
    }
    if (below.isEmpty()) {
      return;
    }
    List<PagedRun> cursors = new ArrayList<>(below.size());
    List<ChainRuns.Pages> kept = new ArrayList<>(below.size());
    try {
      for (ChainRuns.Run run : below) {
        cursors.add(runs.open(run, null));
        kept.add(new ChainRuns.Pages());
      }
      fold(cursors, kept);
    } finally {
      for (PagedRun cursor : cursors) {
        cursor.close();
      }
    }
    for (int i = 0; i < below.size(); i++) {
      runs.replace(below.get(i), kept.get(i).finish());
    }
  }

  /**
   * Folds the entries below the horizon of {@code cursors} into bases, the rest into {@code kept}.
   */
  private void fold(List<PagedRun> cursors, List<ChainRuns.Pages> kept) {
    RowMerge merge = new RowMerge(cursors);
    List<byte[]> folded = new ArrayList<>();
    while (merge.next()) {
      RowCursor row = merge.row();
      byte[] rowKey =
          Arrays.copyOfRange(row.keyBytes(), row.keyOffset(), row.keyOffset() + row.keyLength());
      ExportedState state = stateOf(rowKey);
      boolean listRow = state != null && state.kind().listRows();
      // A put row's state at the horizon is its last entry below it.
      boolean hasLast = false;
      int lastLength = 0;
      long lastStamp = Long.MIN_VALUE;
      folded.clear();
      for (int i = 0; i < merge.sourceCount(); i++) {
        ChainRun.Cursor cursor = ((PagedRun) merge.source(i)).page();
        ChainRuns.Pages keep = null;
        for (cursor.startEntries(); cursor.nextEntry(); ) {
          byte[] bytes = cursor.entryBytes();
          int length = cursor.entryLength();
          long stamp = cursor.entryStamp();
          if (state != null && stamp < horizonMillis) {
            if (listRow) {
              folded.add(Arrays.copyOf(bytes, length));
            } else if (!hasLast || stamp >= lastStamp) {
              // ">=": of equal stamps the later write, as replaying in (stamp, order) would.
              if (last.length < length) {
                last = new byte[Math.max(length, 2 * last.length)];
              }
              System.arraycopy(bytes, 0, last, 0, length);
              hasLast = true;
              lastLength = length;
              lastStamp = stamp;
            }
          } else {
            if (keep == null) {
              keep = kept.get(merge.sourceIndex(i));
              keep.startRow(rowKey, 0, rowKey.length);
            }
            keep.writer().entry(bytes, 0, length);
          }
        }
        if (keep != null) {
          keep.endRow();
        }
      }
      if (hasLast || !folded.isEmpty()) {
        byte[] baseKey =
            new OrderedBytes(rowKey.length + ChainLayout.STAMP_BYTES)
                .writeBytes(rowKey)
                .writeOrderedLong(ChainLayout.BASE_STAMP)
                .toByteArray();
        if (listRow) {
          foldList(baseKey, folded);
        } else {
          foldPut(
              baseKey,
              ChainLayout.entry(
                  ChainLayout.BASE_STAMP,
                  last,
                  ChainLayout.ENTRY_HEADER_BYTES,
                  lastLength - ChainLayout.ENTRY_HEADER_BYTES));
        }
      }
    }
  }

  private ExportedState stateOf(byte[] rowKey) {
    int idEnd = OrderedBytes.skipLengthPrefixed(rowKey, 0);
    if (lastIdPart == null || !Arrays.equals(lastIdPart, 0, lastIdPart.length, rowKey, 0, idEnd)) {
      lastIdPart = Arrays.copyOf(rowKey, idEnd);
      lastIdState = states.get(new String(rowKey, 4, idEnd - 4, StandardCharsets.UTF_8));
    }
    return lastIdState;
  }

  /** Put rows: {@code base} (stamped as one) is the row's state at the horizon. */
  private void foldPut(byte[] baseKey, byte[] base) {
    history.delete(baseKey);
    if (!ChainLayout.isDelete(base)) {
      history.append(baseKey, base);
    }
  }

  /** List rows: the base's elements, then the folded ones by stamp, restarted at each delete. */
  private void foldList(byte[] baseKey, List<byte[]> folded) {
    folded.sort(BY_STAMP); // stable: writes at one stamp keep their order
    int lastDelete = -1;
    for (int i = 0; i < folded.size(); i++) {
      if (ChainLayout.isDelete(folded.get(i))) {
        lastDelete = i;
      }
    }
    if (lastDelete >= 0) {
      history.delete(baseKey);
    }
    // Without a delete the base stays valid: the newer elements are appended to it.
    List<byte[]> elements = new ArrayList<>(folded.size() - lastDelete - 1);
    for (int i = lastDelete + 1; i < folded.size(); i++) {
      elements.add(ChainLayout.restamped(folded.get(i), ChainLayout.BASE_STAMP));
    }
    if (!elements.isEmpty()) {
      history.appendAll(baseKey, elements);
    }
  }

  private static final Comparator<byte[]> BY_STAMP =
      Comparator.comparingLong(ChainLayout::entryStamp);
}
