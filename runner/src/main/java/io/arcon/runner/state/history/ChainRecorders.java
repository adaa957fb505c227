package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * The {@link ChainRecorder}s of one {@code BackendStateInternals}: one per exported state id,
 * sharing one key buffer (single-threaded, like their owner). Also records the clears that span
 * state ids ({@code clearNamespace}, {@code clearKey}).
 */
public final class ChainRecorders {
  private final Map<String, ChainRecorder> byId = new HashMap<>();

  /** {@code lp(id)} per recorder, to recognize the rows of exported ids in a whole-key scan. */
  private final byte[][] idParts;

  private final ChainRecorder[] recorders;

  /** Per recorder: the length of its {@code lp(id)}, and that prefix's rank in key order. */
  private final int[] idPartLengths;

  private final int[] idRanks;

  /** Where flushes go. */
  private final ChainRuns runs;

  /** The writes of every recorder not yet in their chains: one buffer per instance. */
  private final ChainWriteBuffer pending;

  private boolean recording = true;

  /**
   * @param exactById for each exported id, true when its chain stamp is the event time (exact
   *     versions), false when it is the input watermark (watermark cut)
   * @param eventTime the operator's current event time (the {@code setEventTime} value)
   * @param inputWatermark the operator's current input watermark
   * @param pruneStepMillis how far the owner moves the horizon between prunes (0: unknown): entries
   *     are kept in segments of that width, so a prune drops whole ones
   */
  public ChainRecorders(
      StateBackend backend,
      StateHistory history,
      Map<String, Boolean> exactById,
      LongSupplier eventTime,
      LongSupplier inputWatermark,
      long pruneStepMillis) {
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(inputWatermark, "inputWatermark");
    Map<String, ExportedState> states = history.exportedStates();
    this.runs = history.runs();
    if (!exactById.keySet().equals(states.keySet())) {
      throw new IllegalArgumentException(
          "The consistency of every exported state must be given, and only theirs: exported "
              + new TreeSet<>(states.keySet())
              + ", consistency given for "
              + new TreeSet<>(exactById.keySet()));
    }
    StateTable historyTable = backend.table(ChainLayout.HISTORY_TABLE);
    long segmentMillis = ChainLayout.segmentMillis(pruneStepMillis);
    OrderedBytes keyBuffer = new OrderedBytes(256);
    this.pending = new ChainWriteBuffer(segmentMillis);
    recorders = new ChainRecorder[states.size()];
    idParts = new byte[states.size()][];
    idPartLengths = new int[states.size()];
    int i = 0;
    for (ExportedState state : states.values()) {
      boolean exact = Objects.requireNonNull(exactById.get(state.id()), state.id());
      ChainRecorder recorder =
          new ChainRecorder(
              state,
              historyTable,
              keyBuffer,
              exact ? eventTime : inputWatermark,
              pending,
              i,
              this::flush);
      byId.put(state.id(), recorder);
      recorders[i] = recorder;
      idParts[i] = ChainLayout.statePrefix(state.id());
      idPartLengths[i] = idParts[i].length;
      i++;
    }
    idRanks = new int[idParts.length];
    for (int a = 0; a < idParts.length; a++) {
      for (byte[] other : idParts) {
        if (Arrays.compareUnsigned(other, idParts[a]) < 0) {
          idRanks[a]++;
        }
      }
    }
  }

  /** The recorder of {@code stateId}, or null when that id is not exported. */
  public ChainRecorder forId(String stateId) {
    return byId.get(stateId);
  }

  /**
   * Records the end of every exported row under {@code keyAndNamespace} ({@code lp(key)
   * lp(namespace)}); call it before deleting that prefix. Reads only the rows of exported ids (one
   * prefix scan per id).
   */
  public void recordClearNamespace(StateTable stateTable, byte[] keyAndNamespace) {
    if (!recording) {
      noteUnrecorded();
      return;
    }
    for (int i = 0; i < recorders.length; i++) {
      byte[] address =
          new OrderedBytes(keyAndNamespace.length + idParts[i].length)
              .writeBytes(keyAndNamespace)
              .writeBytes(idParts[i])
              .toByteArray();
      recorders[i].deleteRowsWithPrefix(stateTable, address, address.length);
    }
  }

  /**
   * Records the end of every exported row of the key whose prefix is {@code keyPrefix} ({@code
   * lp(key)}), in every namespace; call it before deleting that prefix. The namespaces are not
   * known, so this reads all rows of the key, of every state id.
   */
  public void recordClearKey(StateTable stateTable, byte[] keyPrefix) {
    if (recorders.length == 0) {
      return;
    }
    if (!recording) {
      noteUnrecorded();
      return;
    }
    try (CloseableIterator<StateEntry> rows = stateTable.prefixScan(keyPrefix)) {
      while (rows.hasNext()) {
        byte[] rowKey = rows.next().key();
        int idStart = OrderedBytes.skipLengthPrefixed(rowKey, keyPrefix.length);
        int addressLength = OrderedBytes.skipLengthPrefixed(rowKey, idStart);
        int i = exportedIdAt(rowKey, idStart, addressLength);
        if (i >= 0) {
          recorders[i].delete(rowKey, addressLength);
        }
      }
    }
  }

  /** The index of the recorder whose {@code lp(id)} is {@code rowKey[idStart, idEnd)}, or -1. */
  private int exportedIdAt(byte[] rowKey, int idStart, int idEnd) {
    for (int i = 0; i < recorders.length; i++) {
      byte[] idPart = idParts[i];
      if (idEnd - idStart == idPart.length
          && Arrays.equals(rowKey, idStart, idEnd, idPart, 0, idPart.length)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Puts every write recorded so far into the history, as runs (they are buffered, see {@link
   * ChainWriteBuffer}): call it before the history is read or copied.
   */
  public void flush() {
    if (pending.isEmpty()) {
      return;
    }
    List<List<byte[]>> flushed = new ArrayList<>();
    pending.flushTo(idPartLengths, idRanks, flushed::add);
    runs.addAll(flushed);
    runs.mergeSmallTail();
  }

  /** Whether writes are recorded now. */
  public boolean recording() {
    return recording;
  }

  /**
   * Turns recording on or off for every exported id. While off, writes record nothing and only note
   * their chain stamp ({@link #largestUnrecordedStamp}); turning it on forgets those.
   */
  void recording(boolean on) {
    recording = on;
    if (!on) {
      // The chains are dropped with the recording.
      pending.clear();
    }
    for (ChainRecorder recorder : recorders) {
      recorder.recording(on);
    }
  }

  /**
   * The largest chain stamp of a write (or clear) while recording was off, {@link Long#MIN_VALUE}
   * when there was none.
   */
  long largestUnrecordedStamp() {
    long largest = Long.MIN_VALUE;
    for (ChainRecorder recorder : recorders) {
      largest = Math.max(largest, recorder.largestUnrecordedStamp());
    }
    return largest;
  }

  private void noteUnrecorded() {
    for (ChainRecorder recorder : recorders) {
      recorder.noteUnrecorded(recorder.currentStamp());
    }
  }

  /**
   * Writes every live row of the exported ids in {@code stateTable} as the base of its chain (one
   * full scan of the table): the chains then replay, from an empty history, to the state as it is
   * now. Call it on an empty history of these ids.
   */
  void recordBase(StateTable stateTable) {
    if (recorders.length == 0) {
      return;
    }
    flush();
    try (CloseableIterator<StateEntry> rows = stateTable.iterator()) {
      while (rows.hasNext()) {
        StateEntry row = rows.next();
        byte[] rowKey = row.key();
        int idStart = OrderedBytes.skipLengthPrefixed(rowKey, 0);
        idStart = OrderedBytes.skipLengthPrefixed(rowKey, idStart);
        int addressLength = OrderedBytes.skipLengthPrefixed(rowKey, idStart);
        int i = exportedIdAt(rowKey, idStart, addressLength);
        if (i >= 0) {
          recorders[i].base(row, addressLength);
        }
      }
    }
  }

  /** The {@code lp(id)} prefixes of the exported ids' chains. */
  byte[][] statePrefixes() {
    return idParts.clone();
  }

  @Override
  public String toString() {
    return "ChainRecorders" + byId.keySet();
  }
}
