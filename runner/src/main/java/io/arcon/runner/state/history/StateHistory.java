package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.KeyBytes;
import io.arcon.state.StateBackend;
import io.arcon.state.StateTable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;

/**
 * The exported states of one operator instance as of a version time T, read from their version
 * chains (layout: {@link ChainLayout}), and the pruning of those chains.
 *
 * <p>The version at T of a state is, per cell (key and namespace), the state after exactly the
 * writes whose chain stamp is &lt; T: for an exact state the event time that caused the write, for
 * a watermark-cut state the input watermark at the write. Like the operator, an instance is
 * single-threaded: call it between bundles, never while the operator processes.
 */
public final class StateHistory {
  private final StateTable history;
  private final ChainRuns runs;
  private final StateTable meta;
  private final Map<String, ExportedState> states;

  /** False while an {@link OnDemandRecording} is off: there is no history to read. */
  private boolean recorded = true;

  /** Where an {@link OnDemandRecording} started its chains, or {@link Long#MIN_VALUE}. */
  private long onDemandFrom = Long.MIN_VALUE;

  /** The recorders whose buffered writes go into the chains before they are read; or null. */
  private ChainRecorders recorders;

  /**
   * The history of {@code backend}'s exported states. {@code exportedSpecs} (state id to the DoFn's
   * spec, coders known) decides how each id's chains decode.
   */
  public StateHistory(StateBackend backend, Map<String, ? extends StateSpec<?>> exportedSpecs) {
    this.history = backend.table(ChainLayout.HISTORY_TABLE);
    // A key per row, added once, and read in key order by every version and prune.
    this.history.keepKeyOrder();
    this.runs = new ChainRuns(backend);
    this.meta = backend.table(ChainLayout.META_TABLE);
    this.states = Collections.unmodifiableMap(ExportedState.ofAll(exportedSpecs));
  }

  /** The runs of this instance's history. */
  ChainRuns runs() {
    return runs;
  }

  /** Makes every read and prune first put the writes {@code recorders} buffered into the chains. */
  public void readAfterFlushing(ChainRecorders recorders) {
    this.recorders = recorders;
  }

  private void flushRecorders() {
    if (recorders != null) {
      recorders.flush();
    }
  }

  /** The exported states by id, in the order they were given. */
  public Map<String, ExportedState> exportedStates() {
    return states;
  }

  /**
   * One chunk of the cells of {@code stateId} that are non-empty at {@code versionMillis}, in order
   * of (encoded key, namespace) as the history stores them.
   *
   * @param onlyEncodedKey when not null, only the cells of this coder-encoded key (ON KEY)
   * @param afterCursor null for the first chunk, else the {@link Chunk#nextCursor} of the previous
   *     one (same state id, version and key filter)
   * @param maxCells at most this many cells in the chunk (at least 1)
   * @return the cells; {@code nextCursor} is null when there are no more. Between chunks the
   *     operator may write on, as long as its writes have chain stamps &ge; {@code versionMillis}
   *     (true once its input watermark passed the version): the chunks then add up to what one call
   *     would have returned. A chunk may hold fewer cells than asked only when it is the last.
   */
  public Chunk cellsAt(
      String stateId, long versionMillis, byte[] onlyEncodedKey, byte[] afterCursor, int maxCells) {
    ExportedState state = requireExported(stateId);
    if (maxCells < 1) {
      throw new IllegalArgumentException("maxCells must be at least 1; got " + maxCells);
    }
    if (!recorded) {
      throw new IllegalStateException(
          "State '"
              + stateId
              + "' is a watermark cut, recorded only while a TSS reads it, and no TSS reads it now:"
              + " create the TSS first, with an AT after the app's watermark");
    }
    long oldest = oldestAvailableMillis();
    if (versionMillis < oldest && oldest == onDemandFrom) {
      throw new IllegalArgumentException(
          "State '"
              + stateId
              + "' is a watermark cut, recorded from when a TSS first read it: versions from "
              + Instant.ofEpochMilli(oldest)
              + " on; version "
              + Instant.ofEpochMilli(versionMillis)
              + " is older. Create the TSS with an AT after the app's watermark, or export the"
              + " transform exactly (--tssExport) to keep its history all along.");
    }
    if (versionMillis < oldest) {
      throw new IllegalArgumentException(
          "The state history of '"
              + stateId
              + "' starts at "
              + Instant.ofEpochMilli(oldest)
              + " (older entries were pruned); version "
              + Instant.ofEpochMilli(versionMillis)
              + " is older. Ask for a version at or after "
              + Instant.ofEpochMilli(oldest)
              + ", or keep more history (--stateHistory).");
    }
    flushRecorders();
    byte[] prefix =
        onlyEncodedKey == null
            ? ChainLayout.statePrefix(stateId)
            : ChainLayout.keyPrefix(stateId, onlyEncodedKey);
    byte[] from = prefix;
    if (afterCursor != null) {
      requireCursor(afterCursor, prefix, stateId);
      from = KeyBytes.prefixEnd(afterCursor);
    }
    byte[] end = KeyBytes.prefixEnd(prefix);
    List<CellVersion> cells = new ArrayList<>(Math.min(maxCells, 1024));
    CellAssembler cell = new CellAssembler(state, versionMillis);
    byte[] cellKey = null;
    int cellPrefixLength = 0;
    List<RowCursor> sources = new ArrayList<>();
    try (BaseRows base = new BaseRows(history.scan(from, end))) {
      sources.add(base);
      for (ChainRuns.Run run : runs.all()) {
        if (run.minStamp() < versionMillis) {
          sources.add(runs.open(run, from));
        }
      }
      RowMerge merge = new RowMerge(sources);
      while (merge.next()) {
        RowCursor row = merge.row();
        if (end != null
            && Arrays.compareUnsigned(
                    row.keyBytes(),
                    row.keyOffset(),
                    row.keyOffset() + row.keyLength(),
                    end,
                    0,
                    end.length)
                >= 0) {
          break;
        }
        byte[] key =
            Arrays.copyOfRange(row.keyBytes(), row.keyOffset(), row.keyOffset() + row.keyLength());
        // Length prefixes make the cell prefix prefix-free: a key starting with it is in the cell.
        if (cellKey == null || !ChainLayout.samePrefix(cellKey, key, cellPrefixLength)) {
          if (cellKey != null) {
            addIfPresent(cells, cell);
            if (cells.size() >= maxCells) {
              return new Chunk(cells, Arrays.copyOf(cellKey, cellPrefixLength));
            }
          }
          cellKey = key;
          cellPrefixLength = ChainLayout.cellPrefixLengthOfRow(key);
          cell.start(key, cellPrefixLength);
        }
        cell.startRow(key);
        for (int i = 0; i < merge.sourceCount(); i++) {
          RowCursor source = merge.source(i);
          if (source == base) {
            for (byte[] entry : base.entries()) {
              cell.entry(entry, 0, entry.length);
            }
          } else {
            ((PagedRun) source).page().forEachEntry(cell::entry);
          }
        }
      }
    } finally {
      closeRuns(sources);
    }
    if (cellKey != null) {
      addIfPresent(cells, cell);
    }
    return new Chunk(cells, null);
  }

  private static void closeRuns(List<RowCursor> sources) {
    for (RowCursor source : sources) {
      if (source instanceof PagedRun run) {
        run.close();
      }
    }
  }

  /** An {@link OnDemandRecording} started: versions from {@code fromMillis} on can be read. */
  void recordingFrom(long fromMillis) {
    recorded = true;
    onDemandFrom = fromMillis;
  }

  /** An {@link OnDemandRecording} is off: nothing can be read. */
  void notRecording() {
    recorded = false;
    onDemandFrom = Long.MIN_VALUE;
  }

  private static void addIfPresent(List<CellVersion> cells, CellAssembler cell) {
    CellVersion version = cell.finish();
    if (version != null) {
      cells.add(version);
    }
  }

  /**
   * Folds, in every chain, the entries with chain stamp &lt; {@code horizonMillis} into one base
   * entry (dropping the chain when its row did not exist at the horizon), so that versions at any T
   * &ge; the horizon read as before and the history stops growing with time. Versions before the
   * horizon are refused afterwards. A horizon at or before the current {@link
   * #oldestAvailableMillis} changes nothing.
   *
   * <p>Cost: one full scan of the history table, plus writes for the rows written below the horizon
   * since the last prune (see {@link ChainPruner}). Running it once per a fraction of the retained
   * history (e.g. every minute for an hour of history) keeps the table near the size of the
   * retained writes plus one base entry per live row.
   */
  public void prune(long horizonMillis) {
    if (!recorded || horizonMillis <= oldestAvailableMillis()) {
      return;
    }
    flushRecorders();
    new ChainPruner(history, runs, states, horizonMillis).run();
    meta.put(
        ChainLayout.PRUNED_BEFORE_KEY,
        new OrderedBytes(8).writeRawLong(horizonMillis).toByteArray());
  }

  /**
   * The oldest version time that can still be read: the largest horizon pruned so far, {@link
   * Long#MIN_VALUE} when never pruned. Kept in the backend, so it follows snapshots and restores.
   */
  public long oldestAvailableMillis() {
    byte[] stored = meta.get(ChainLayout.PRUNED_BEFORE_KEY);
    return stored == null ? Long.MIN_VALUE : OrderedBytes.readRawLong(stored, 0);
  }

  /**
   * The window of a cell's namespace ({@link CellVersion#namespace}), decoded with the transform's
   * window coder; {@link GlobalWindow#INSTANCE} for the global namespace. A DoFn's state in the
   * global window is in a window namespace of {@link GlobalWindow}, so callers test {@code
   * instanceof GlobalWindow} for "global" either way.
   */
  public static BoundedWindow windowOf(
      String namespace, Coder<? extends BoundedWindow> windowCoder) {
    StateNamespace decoded;
    try {
      decoded = StateNamespaces.fromString(namespace, windowCoder);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Namespace '"
              + namespace
              + "' does not decode with window coder "
              + windowCoder
              + ": pass the window coder of the transform whose state this is",
          e);
    }
    if (decoded instanceof StateNamespaces.WindowNamespace<?> window) {
      return window.getWindow();
    }
    if (decoded instanceof StateNamespaces.WindowAndTriggerNamespace<?> window) {
      return window.getWindow();
    }
    return GlobalWindow.INSTANCE;
  }

  private ExportedState requireExported(String stateId) {
    ExportedState state = states.get(stateId);
    if (state == null) {
      throw new IllegalArgumentException(
          "State '"
              + stateId
              + "' has no history here: the exported states are "
              + new TreeSet<>(states.keySet()));
    }
    return state;
  }

  private static void requireCursor(byte[] cursor, byte[] prefix, String stateId) {
    boolean valid;
    try {
      int pos = OrderedBytes.skipLengthPrefixed(cursor, 0);
      pos = OrderedBytes.skipLengthPrefixed(cursor, pos);
      valid = OrderedBytes.skipLengthPrefixed(cursor, pos) == cursor.length;
    } catch (IndexOutOfBoundsException e) {
      valid = false;
    }
    if (!valid || !ChainLayout.startsWith(cursor, prefix)) {
      throw new IllegalArgumentException(
          "The cursor is not one that cellsAt returned for state '"
              + stateId
              + "' and this key filter: pass the nextCursor of the previous chunk of the same"
              + " read, or null to start over");
    }
  }

  /**
   * One chunk of a version's cells.
   *
   * @param nextCursor where the next chunk starts; null when this chunk is the last
   */
  public record Chunk(List<CellVersion> cells, byte[] nextCursor) {}

  /**
   * One non-empty cell of a state at a version.
   *
   * @param encodedKey the coder-encoded key
   * @param namespace the cell's {@code StateNamespace.stringKey()} (see {@link #windowOf})
   * @param value the Beam-level value, decoded with the spec's coders: value -&gt; T; bag, set
   *     -&gt; {@code List<T>}; map -&gt; {@code Map<K, V>}; multimap -&gt; {@code Map<K, List<V>>};
   *     ordered list -&gt; {@code List<TimestampedValue<T>>} by timestamp; combining -&gt; the
   *     accumulator. Maps, sets and map keys are in the order of their encodings.
   * @param updatedAtMillis the largest updated_at (event time of the write) among the cell's rows
   */
  public record CellVersion(
      byte[] encodedKey, String namespace, Object value, long updatedAtMillis) {

    /** Equal key bytes, namespace, value (arrays, e.g. accumulators, by content) and stamp. */
    @Override
    public boolean equals(Object o) {
      return o instanceof CellVersion that
          && Arrays.equals(encodedKey, that.encodedKey)
          && namespace.equals(that.namespace)
          && Objects.deepEquals(value, that.value)
          && updatedAtMillis == that.updatedAtMillis;
    }

    @Override
    public int hashCode() {
      return Objects.hash(Arrays.hashCode(encodedKey), namespace, updatedAtMillis);
    }

    @Override
    public String toString() {
      return "CellVersion[key="
          + HexFormat.of().formatHex(encodedKey)
          + ", namespace="
          + namespace
          + ", value="
          + (value instanceof Object[] array ? Arrays.deepToString(array) : value)
          + ", updatedAt="
          + updatedAtMillis
          + "]";
    }
  }
}
