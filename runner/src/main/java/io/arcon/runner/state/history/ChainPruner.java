package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.ListFraming;
import io.arcon.state.StateTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One pass of {@link StateHistory#prune}: walks the whole history table once and, per row chain,
 * folds the entries with chain stamp &lt; horizon into the row's base segment (see {@link
 * ChainLayout}), dropping them when the row does not exist at the horizon.
 *
 * <p>Cost: walks every segment of the table but reads only the base segments and those that start
 * below the horizon (a segment holds entries at or after its start; a put row's are scanned in
 * their stored bytes for the one entry that stays, not decoded); writes only for rows that got
 * entries below the horizon since the last prune (their segments are rewritten with the entries
 * that stay, and the base with what the folded ones replay to). A list row whose base has no delete
 * after it is extended with the new elements instead of rewritten, so a long bag costs only its new
 * elements per prune.
 *
 * <p>Chains of state ids that are not exported (a pipeline restarted with another export
 * configuration) are left as they are: their row kind, hence how to fold them, is not known.
 */
final class ChainPruner {
  private final StateTable history;
  private final Map<String, ExportedState> states;
  private final long horizonMillis;

  /** The row being walked: its first segment's key, its state (null: not exported), segments. */
  private byte[] rowKey;

  private ExportedState rowState;
  private final List<Segment> segments = new ArrayList<>();

  /** {@code lp(id)} and state of the last row's id, so a run of rows looks the id up once. */
  private byte[] lastIdPart;

  private ExportedState lastIdState;

  ChainPruner(StateTable history, Map<String, ExportedState> states, long horizonMillis) {
    this.history = history;
    this.states = states;
    this.horizonMillis = horizonMillis;
  }

  void run() {
    // Keys alone: a segment is read only when it may hold entries below the horizon.
    try (CloseableIterator<byte[]> it = history.scanKeys(null, null)) {
      while (it.hasNext()) {
        byte[] key = it.next();
        if (rowKey == null
            || rowKey.length != key.length
            || !ChainLayout.samePrefix(rowKey, key, ChainLayout.rowPrefixLength(key))) {
          finishRow();
          startRow(key);
        }
        long segment = ChainLayout.segment(key);
        // A segment above the horizon holds only entries at or after it: left as it is, unread.
        if (rowState != null && (segment == ChainLayout.BASE_STAMP || segment < horizonMillis)) {
          segments.add(new Segment(key, history.get(key)));
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
    if (!segments.isEmpty()) {
      fold();
      segments.clear();
    }
  }

  /** Folds the current row's entries below the horizon into its base, if it has any. */
  private void fold() {
    if (!rowState.kind().listRows() && foldPutInPlace()) {
      return;
    }
    Segment base = null;
    List<byte[]> folded = new ArrayList<>();
    // Each segment decoded once: what falls below the horizon, and what it keeps if it loses any.
    List<Segment> shrunk = new ArrayList<>();
    List<List<byte[]>> keptBy = new ArrayList<>();
    for (Segment segment : segments) {
      if (ChainLayout.segment(segment.key) == ChainLayout.BASE_STAMP) {
        base = segment;
        continue;
      }
      List<byte[]> entries = segment.entries();
      List<byte[]> kept = new ArrayList<>(entries.size());
      for (byte[] entry : entries) {
        if (ChainLayout.entryStamp(entry) < horizonMillis) {
          folded.add(entry);
        } else {
          kept.add(entry);
        }
      }
      if (kept.size() < entries.size()) {
        shrunk.add(segment);
        keptBy.add(kept);
      }
    }
    if (folded.isEmpty()) {
      return; // nothing new below the horizon: the base (if any) is still the row there
    }
    folded.sort(BY_STAMP); // stable: writes at one stamp keep their order
    // The segments that held folded entries keep only their entries at or above the horizon.
    for (int i = 0; i < shrunk.size(); i++) {
      history.delete(shrunk.get(i).key);
      for (byte[] entry : keptBy.get(i)) {
        history.append(shrunk.get(i).key, entry);
      }
    }
    byte[] baseKey =
        base != null ? base.key : ChainLayout.withSegment(rowKey, ChainLayout.BASE_STAMP);
    if (rowState.kind().listRows()) {
      foldList(base, baseKey, folded);
    } else {
      foldPut(base, baseKey, folded);
    }
  }

  /**
   * A put row whose segments below the horizon hold nothing at or above it (the usual case: the
   * horizon is a segment boundary): its state at the horizon is its last entry below it by stamp,
   * then by write order, found in the framed bytes without copying the others out. Those segments
   * are dropped and the base replaced. False, having written nothing, when a segment also holds
   * entries to keep: the general fold then rewrites it.
   */
  private boolean foldPutInPlace() {
    Segment base = null;
    Segment lastIn = null;
    int lastAt = -1;
    int lastLength = 0;
    long lastStamp = Long.MIN_VALUE;
    for (Segment segment : segments) {
      if (ChainLayout.segment(segment.key) == ChainLayout.BASE_STAMP) {
        base = segment;
        continue;
      }
      byte[] framed = segment.framed;
      int position = 0;
      while (position < framed.length) {
        int length = ListFraming.frameLength(framed, position);
        position += ListFraming.varIntSize(length);
        long stamp = ChainLayout.entryStamp(framed, position, length);
        if (stamp >= horizonMillis) {
          return false;
        }
        // Equal stamps share a segment, so ">=" keeps the later write, as a stable sort would.
        if (lastIn == null || stamp >= lastStamp) {
          lastIn = segment;
          lastAt = position;
          lastLength = length;
          lastStamp = stamp;
        }
        position += length;
      }
    }
    if (lastIn == null) {
      return true; // nothing below the horizon: the base (if any) is still the row there
    }
    for (Segment segment : segments) {
      if (segment != base) {
        history.delete(segment.key);
      }
    }
    byte[] last = Arrays.copyOfRange(lastIn.framed, lastAt, lastAt + lastLength);
    foldPut(
        base,
        base != null ? base.key : ChainLayout.withSegment(rowKey, ChainLayout.BASE_STAMP),
        List.of(last));
    return true;
  }

  /** Put rows: the last folded entry is the row's state at the horizon. */
  private void foldPut(Segment base, byte[] baseKey, List<byte[]> folded) {
    byte[] last = folded.get(folded.size() - 1);
    if (base != null) {
      history.delete(baseKey);
    }
    if (!ChainLayout.isDelete(last)) {
      history.append(baseKey, ChainLayout.restamped(last, ChainLayout.BASE_STAMP));
    }
  }

  /** List rows: the base's elements, then the folded ones, restarted at each delete. */
  private void foldList(Segment base, byte[] baseKey, List<byte[]> folded) {
    int lastDelete = -1;
    for (int i = 0; i < folded.size(); i++) {
      if (ChainLayout.isDelete(folded.get(i))) {
        lastDelete = i;
      }
    }
    if (base != null && lastDelete >= 0) {
      history.delete(baseKey);
    }
    // Without a delete the base stays valid: the newer elements are appended to it.
    for (int i = lastDelete + 1; i < folded.size(); i++) {
      history.append(baseKey, ChainLayout.restamped(folded.get(i), ChainLayout.BASE_STAMP));
    }
  }

  private static final Comparator<byte[]> BY_STAMP =
      Comparator.comparingLong(ChainLayout::entryStamp);

  /** One segment of the row being walked: its key and its entries, framed as stored. */
  private record Segment(byte[] key, byte[] framed) {
    List<byte[]> entries() {
      return ListFraming.decode(framed);
    }
  }
}
