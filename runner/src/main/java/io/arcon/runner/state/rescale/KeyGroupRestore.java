package io.arcon.runner.state.rescale;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.runner.state.history.ChainLayout;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.state.CloseableIterator;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import io.arcon.state.snapshot.FileTrees;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Fills an empty backend with the state of the keys one instance owns, taken from the snapshots of
 * the previous instances (any number, any engine). Each snapshot is restored into a scratch backend
 * of its own engine (so its checksums are verified as for any restore), every table is scanned, and
 * each row is copied if {@link KeyGroups#instanceForKey} of its key is this instance. Rows are
 * copied byte for byte with {@code put}: a list row's value is its framed list, which every engine
 * reads back and appends to as the list.
 *
 * <p>Rows that belong to the instance rather than a key are merged:
 *
 * <ul>
 *   <li>{@code time_sorted_input} rows are keyed by (timestamp, sequence number of their instance):
 *       rows of two instances could collide, so each copied row gets a new sequence number, in the
 *       order (timestamp, previous instance, old sequence): every instance's order of equal
 *       timestamps is kept.
 *   <li>{@code beam_state_history_runs}: a page holds the history of many keys, so it is copied
 *       with only the rows of the keys this instance owns; a run's directory row is copied as it
 *       is. Both keep their keys, unique across instances.
 *   <li>{@code beam_state_history_meta}'s {@code pruned_before}: the largest of the previous
 *       instances' horizons, since some keys' chains cannot answer versions before it.
 *   <li>{@code operator_progress}'s input watermark: the smallest (the instances' watermarks at an
 *       aligned cut are equal in practice; the smallest is the one no instance went past).
 * </ul>
 *
 * <p>A table whose layout is not known is refused with an error naming it and the snapshot: its
 * rows could not be given to their owners, and dropping them would lose state silently.
 */
public final class KeyGroupRestore {
  static final byte[] PRUNED_BEFORE_KEY = "pruned_before".getBytes(StandardCharsets.UTF_8);

  private final StateBackend target;
  private final int instance;
  private final int parallelism;
  private final Path scratchRoot;
  private long timeSortedSequence;
  private Long prunedBefore;
  private Long inputWatermark;

  private KeyGroupRestore(StateBackend target, int instance, int parallelism, Path scratchRoot) {
    this.target = target;
    this.instance = instance;
    this.parallelism = parallelism;
    this.scratchRoot = scratchRoot;
  }

  /**
   * Copies into {@code target} (which must be empty) the rows of the keys that instance {@code
   * instance} of {@code parallelism} owns, from every snapshot in {@code previousInstances}.
   *
   * @param scratchRoot a directory for the scratch backends (deleted afterwards)
   * @throws IllegalStateException for a table whose layout is unknown or a malformed row
   * @throws io.arcon.state.CorruptSnapshotException when a snapshot fails its checks
   */
  public static void copyOwnedRows(
      StateBackend target,
      List<SnapshotHandle> previousInstances,
      int instance,
      int parallelism,
      Path scratchRoot) {
    if (parallelism < 1 || parallelism > KeyGroups.MAX_PARALLELISM) {
      throw new IllegalArgumentException(
          "parallelism must be in 1.." + KeyGroups.MAX_PARALLELISM + ", got " + parallelism);
    }
    if (instance < 0 || instance >= parallelism) {
      throw new IllegalArgumentException(
          "instance " + instance + " is not in 0.." + (parallelism - 1));
    }
    KeyGroupRestore restore = new KeyGroupRestore(target, instance, parallelism, scratchRoot);
    try {
      for (int i = 0; i < previousInstances.size(); i++) {
        restore.copyFrom(previousInstances.get(i), scratchRoot.resolve("previous-" + i));
      }
      restore.writeMerged();
    } finally {
      FileTrees.deleteRecursively(scratchRoot);
    }
  }

  private void copyFrom(SnapshotHandle snapshot, Path scratchDirectory) {
    StateBackend scratch =
        StateBackends.open(StateBackendConfig.of(snapshot.engine(), scratchDirectory));
    try {
      scratch.restore(snapshot);
      TreeSet<String> unknown = new TreeSet<>(scratch.tableNames());
      unknown.removeAll(KeyedRowLayouts.knownTables());
      if (!unknown.isEmpty()) {
        throw new IllegalStateException(
            "Cannot restore keyed state at parallelism "
                + parallelism
                + ": snapshot "
                + snapshot.directory()
                + " has table(s) "
                + unknown
                + " whose row layout is unknown, so their rows cannot be given to the instances"
                + " that own their keys. Restore at the parallelism and state backend the"
                + " checkpoint was taken with, or teach KeyedRowLayouts the table's layout.");
      }
      for (String name : scratch.tableNames()) {
        copyTable(snapshot, name, scratch.table(name));
      }
    } finally {
      scratch.dispose();
    }
  }

  private void copyTable(SnapshotHandle snapshot, String name, StateTable source) {
    KeyedRowLayouts.KeyOf keyOf = KeyedRowLayouts.perKey(name);
    StateTable out = target.table(name);
    try (CloseableIterator<StateEntry> rows = source.iterator()) {
      while (rows.hasNext()) {
        StateEntry row = rows.next();
        if (keyOf != null) {
          if (owns(keyOf(snapshot, name, keyOf, row))) {
            out.put(
                name.equals(KeyedRowLayouts.TIME_SORTED_INPUT_TABLE)
                    ? resequenced(snapshot, row.key())
                    : row.key(),
                row.value());
          }
        } else if (name.equals(KeyedRowLayouts.HISTORY_RUNS_TABLE)) {
          // Keys are unique across instances (a nonce each); a page keeps the rows of owned keys.
          byte[] owned = ChainLayout.runRowWithKeys(row.key(), row.value(), this::owns);
          if (owned != null) {
            out.put(row.key(), owned);
          }
        } else if (name.equals(KeyedRowLayouts.HISTORY_META_TABLE)
            && Arrays.equals(row.key(), PRUNED_BEFORE_KEY)) {
          long horizon = OrderedBytes.readRawLong(row.value(), 0);
          prunedBefore = prunedBefore == null ? horizon : Math.max(prunedBefore, horizon);
        } else if (name.equals(InstanceProgress.TABLE)
            && Arrays.equals(row.key(), InstanceProgress.INPUT_WATERMARK_KEY)) {
          long watermark = OrderedBytes.readRawLong(row.value(), 0);
          inputWatermark = inputWatermark == null ? watermark : Math.min(inputWatermark, watermark);
        } else {
          throw new IllegalStateException(
              "Cannot restore keyed state at parallelism "
                  + parallelism
                  + ": table '"
                  + name
                  + "' of snapshot "
                  + snapshot.directory()
                  + " holds row '"
                  + new String(row.key(), StandardCharsets.UTF_8)
                  + "', which no rule merges across instances");
        }
      }
    }
  }

  private byte[] keyOf(
      SnapshotHandle snapshot, String table, KeyedRowLayouts.KeyOf keyOf, StateEntry row) {
    try {
      return keyOf.keyOf(row);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Table '"
              + table
              + "' of snapshot "
              + snapshot.directory()
              + " has a row of "
              + row.key().length
              + " bytes whose key cannot be read ("
              + e.getMessage()
              + "): the snapshot was not written by this runner's keyed operators",
          e);
    }
  }

  private boolean owns(byte[] encodedKey) {
    return KeyGroups.instanceForKey(encodedKey, parallelism) == instance;
  }

  /** The row key {@code ts seq} with a fresh sequence number (see the class comment). */
  private byte[] resequenced(SnapshotHandle snapshot, byte[] rowKey) {
    if (rowKey.length != 16) {
      throw new IllegalStateException(
          "Table '"
              + KeyedRowLayouts.TIME_SORTED_INPUT_TABLE
              + "' of snapshot "
              + snapshot.directory()
              + " has a row key of "
              + rowKey.length
              + " bytes, not timestamp and sequence number (16)");
    }
    return ByteBuffer.allocate(16).put(rowKey, 0, 8).putLong(timeSortedSequence++).array();
  }

  private void writeMerged() {
    if (prunedBefore != null) {
      target
          .table(KeyedRowLayouts.HISTORY_META_TABLE)
          .put(PRUNED_BEFORE_KEY, InstanceProgress.encode(prunedBefore));
    }
    if (inputWatermark != null) {
      InstanceProgress.writeInputWatermark(target, inputWatermark);
    }
  }
}
