package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateTable;
import java.util.function.LongSupplier;

/**
 * Records the chains of one operator instance's watermark-cut states only while some TSS reads
 * them, so that an app nobody queries pays nothing for history (an exact state records always: its
 * versions may be asked for after they passed).
 *
 * <p>It starts off. {@link #start} takes the rows the state holds now as the base of their chains
 * (one scan of the state table) and records from then on; versions are readable from the first time
 * after every write the base holds, {@link #start}'s answer. {@link #stop} drops the chains.
 * Recording is not part of a snapshot: an instance restored from one starts off, its base is taken
 * again when a TSS reads it, and the restored rows count as written at the restored watermark.
 *
 * <p>Single-threaded like the operator: call it from the node's thread, between bundles.
 */
public final class OnDemandRecording {
  private final ChainRecorders recorders;
  private final StateHistory history;
  private final StateTable stateTable;
  private final StateTable historyTable;
  private final StateTable meta;
  private final LongSupplier inputWatermark;

  /** Every write not in the chains has a chain stamp at most this (besides the recorders' own). */
  private long unrecordedBound;

  private long recordingFrom;
  private boolean on;

  /**
   * Turns recording off and drops what chains of these states the backend holds (a restored
   * snapshot's).
   *
   * @param inputWatermark the operator's input watermark: the chain stamp of a watermark-cut write,
   *     so at open (after a restore) the bound of the stamps of every row held
   */
  public OnDemandRecording(
      StateBackend backend,
      StateTable stateTable,
      ChainRecorders recorders,
      StateHistory history,
      LongSupplier inputWatermark) {
    this.recorders = recorders;
    this.history = history;
    this.stateTable = stateTable;
    this.historyTable = backend.table(ChainLayout.HISTORY_TABLE);
    this.meta = backend.table(ChainLayout.META_TABLE);
    this.inputWatermark = inputWatermark;
    this.unrecordedBound = inputWatermark.getAsLong();
    turnOff();
  }

  /** Whether the chains are recorded now. */
  public boolean isOn() {
    return on;
  }

  /**
   * Starts recording (nothing changes when it is on already).
   *
   * @return the oldest version time readable from now on: every version at or after it replays the
   *     base plus the writes recorded since; {@link Long#MIN_VALUE} when the state held nothing
   *     written before
   */
  public long start() {
    if (on) {
      return recordingFrom;
    }
    long written = Math.max(unrecordedBound, recorders.largestUnrecordedStamp());
    // A version at T holds the writes stamped < T; the base holds every write so far.
    recordingFrom = written == Long.MIN_VALUE || written == Long.MAX_VALUE ? written : written + 1;
    recorders.recordBase(stateTable);
    if (recordingFrom != Long.MIN_VALUE) {
      meta.put(
          ChainLayout.PRUNED_BEFORE_KEY,
          new OrderedBytes(8).writeRawLong(recordingFrom).toByteArray());
    }
    recorders.recording(true);
    history.recordingFrom(recordingFrom);
    on = true;
    return recordingFrom;
  }

  /** Stops recording and drops the chains (nothing changes when it is off already). */
  public void stop() {
    if (!on) {
      return;
    }
    // Every recorded write was stamped with a watermark at most the current one.
    unrecordedBound = Math.max(unrecordedBound, inputWatermark.getAsLong());
    turnOff();
  }

  private void turnOff() {
    recorders.recording(false);
    for (byte[] prefix : recorders.statePrefixes()) {
      historyTable.deletePrefix(prefix);
    }
    // Every state of an on-demand instance is recorded on demand: its runs hold only theirs.
    history.runs().clear();
    meta.delete(ChainLayout.PRUNED_BEFORE_KEY);
    history.notRecording();
    on = false;
  }
}
