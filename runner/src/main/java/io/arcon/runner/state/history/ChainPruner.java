package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One pass of {@link StateHistory#prune}: walks the whole history table once and, per row chain,
 * folds the entries with chain stamp &lt; horizon into the row's base entry (see {@link
 * ChainLayout}), dropping them when the row does not exist at the horizon.
 *
 * <p>Cost: reads every entry of the table; writes only for rows that got entries below the horizon
 * since the last prune (deletes of those entries, and a put or appends of what survives). A list
 * row whose base has no delete after it is extended with the new elements instead of rewritten, so
 * a long bag costs only its new elements per prune.
 *
 * <p>Chains of state ids that are not exported (a pipeline restarted with another export
 * configuration) are left as they are: their row kind, hence how to fold them, is not known.
 */
final class ChainPruner {
  private final StateTable history;
  private final Map<String, ExportedState> states;
  private final long horizonMillis;

  /** The row being walked: its first entry's key, its state (null: not exported) and entries. */
  private byte[] rowKey;

  private ExportedState rowState;
  private final List<StateEntry> folded = new ArrayList<>();

  /** {@code lp(id)} and state of the last row's id, so a run of rows looks the id up once. */
  private byte[] lastIdPart;

  private ExportedState lastIdState;

  ChainPruner(StateTable history, Map<String, ExportedState> states, long horizonMillis) {
    this.history = history;
    this.states = states;
    this.horizonMillis = horizonMillis;
  }

  void run() {
    try (CloseableIterator<StateEntry> it = history.iterator()) {
      while (it.hasNext()) {
        StateEntry entry = it.next();
        byte[] key = entry.key();
        if (rowKey == null
            || rowKey.length != key.length
            || !ChainLayout.samePrefix(rowKey, key, ChainLayout.rowPrefixLength(key))) {
          finishRow();
          startRow(key);
        }
        if (rowState != null && ChainLayout.stamp(key) < horizonMillis) {
          folded.add(entry);
        }
      }
    }
    finishRow();
  }

  private void startRow(byte[] key) {
    ChainLayout.cellPrefixLength(key); // fails clearly on a key of another layout
    rowKey = key;
    int idEnd = OrderedBytes.skipLengthPrefixed(key, 0);
    if (lastIdPart == null || !Arrays.equals(lastIdPart, 0, lastIdPart.length, key, 0, idEnd)) {
      lastIdPart = Arrays.copyOf(key, idEnd);
      lastIdState = states.get(new String(key, 4, idEnd - 4, StandardCharsets.UTF_8));
    }
    rowState = lastIdState;
  }

  private void finishRow() {
    if (!folded.isEmpty()) {
      if (rowState.kind().listRows()) {
        foldList();
      } else {
        foldPut();
      }
      folded.clear();
    }
  }

  /** Put rows: the last entry below the horizon is the row's state there. */
  private void foldPut() {
    int n = folded.size();
    byte[] last = folded.get(n - 1).value();
    boolean exists = last.length > 0;
    boolean baseFirst = ChainLayout.stamp(folded.get(0).key()) == ChainLayout.BASE_STAMP;
    if (n == 1 && baseFirst && exists) {
      return; // already folded
    }
    for (int i = 0; i < n; i++) {
      if (!(i == 0 && baseFirst && exists)) {
        history.delete(folded.get(i).key());
      }
    }
    if (exists) {
      history.put(ChainLayout.withStamp(rowKey, ChainLayout.BASE_STAMP), last);
    }
  }

  /** List rows: the elements after the last delete below the horizon are the row there. */
  private void foldList() {
    int n = folded.size();
    List<List<byte[]>> ops = new ArrayList<>(n);
    int lastDeleteEntry = -1;
    int lastDeleteOp = -1;
    for (int i = 0; i < n; i++) {
      List<byte[]> entryOps = folded.get(i).elements();
      ops.add(entryOps);
      for (int j = 0; j < entryOps.size(); j++) {
        if (entryOps.get(j).length == 0) {
          lastDeleteEntry = i;
          lastDeleteOp = j;
        }
      }
    }
    boolean baseFirst = ChainLayout.stamp(folded.get(0).key()) == ChainLayout.BASE_STAMP;
    if (baseFirst && lastDeleteEntry < 0) {
      // The base stays valid: move the newer elements onto it.
      byte[] baseKey = folded.get(0).key();
      for (int i = 1; i < n; i++) {
        for (byte[] element : ops.get(i)) {
          history.append(baseKey, element);
        }
        history.delete(folded.get(i).key());
      }
      return;
    }
    List<byte[]> survivors = new ArrayList<>();
    for (int i = Math.max(lastDeleteEntry, 0); i < n; i++) {
      List<byte[]> entryOps = ops.get(i);
      int from = i == lastDeleteEntry ? lastDeleteOp + 1 : 0;
      survivors.addAll(entryOps.subList(from, entryOps.size()));
    }
    for (StateEntry entry : folded) {
      history.delete(entry.key());
    }
    byte[] baseKey = ChainLayout.withStamp(rowKey, ChainLayout.BASE_STAMP);
    for (byte[] element : survivors) {
      history.append(baseKey, element);
    }
  }
}
