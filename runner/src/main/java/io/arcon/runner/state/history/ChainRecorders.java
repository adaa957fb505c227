package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.Arrays;
import java.util.HashMap;
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

  /**
   * @param exactById for each exported id, true when its chain stamp is the event time (exact
   *     versions), false when it is the input watermark (watermark cut)
   * @param eventTime the operator's current event time (the {@code setEventTime} value)
   * @param inputWatermark the operator's current input watermark
   */
  public ChainRecorders(
      StateBackend backend,
      Map<String, ExportedState> states,
      Map<String, Boolean> exactById,
      LongSupplier eventTime,
      LongSupplier inputWatermark) {
    Objects.requireNonNull(eventTime, "eventTime");
    Objects.requireNonNull(inputWatermark, "inputWatermark");
    if (!exactById.keySet().equals(states.keySet())) {
      throw new IllegalArgumentException(
          "The consistency of every exported state must be given, and only theirs: exported "
              + new TreeSet<>(states.keySet())
              + ", consistency given for "
              + new TreeSet<>(exactById.keySet()));
    }
    StateTable history = backend.table(ChainLayout.HISTORY_TABLE);
    long segmentMillis = ChainLayout.segmentMillis(backend.engine());
    OrderedBytes keyBuffer = new OrderedBytes(256);
    recorders = new ChainRecorder[states.size()];
    idParts = new byte[states.size()][];
    int i = 0;
    for (ExportedState state : states.values()) {
      boolean exact = Objects.requireNonNull(exactById.get(state.id()), state.id());
      ChainRecorder recorder =
          new ChainRecorder(
              state, history, keyBuffer, exact ? eventTime : inputWatermark, segmentMillis);
      byId.put(state.id(), recorder);
      recorders[i] = recorder;
      idParts[i] = ChainLayout.statePrefix(state.id());
      i++;
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
    try (CloseableIterator<StateEntry> rows = stateTable.prefixScan(keyPrefix)) {
      while (rows.hasNext()) {
        byte[] rowKey = rows.next().key();
        int idStart = OrderedBytes.skipLengthPrefixed(rowKey, keyPrefix.length);
        int addressLength = OrderedBytes.skipLengthPrefixed(rowKey, idStart);
        for (int i = 0; i < recorders.length; i++) {
          byte[] idPart = idParts[i];
          if (addressLength - idStart == idPart.length
              && Arrays.equals(rowKey, idStart, addressLength, idPart, 0, idPart.length)) {
            recorders[i].delete(rowKey, addressLength);
            break;
          }
        }
      }
    }
  }

  @Override
  public String toString() {
    return "ChainRecorders" + byId.keySet();
  }
}
