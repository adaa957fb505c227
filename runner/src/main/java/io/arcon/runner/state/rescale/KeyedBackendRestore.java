package io.arcon.runner.state.rescale;

import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateBackendConfig;
import io.arcon.state.StateBackends;
import io.arcon.state.snapshot.SnapshotManifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens a keyed operator instance's backend with the state of a checkpoint. Same parallelism and
 * same engine: the instance's own snapshot is restored as a whole (for rocksdb and lmdb a copy of
 * the engine's files). Otherwise {@link KeyGroupRestore} copies the rows of the keys the instance
 * now owns out of the previous instances' snapshots (only its own one when just the engine changed:
 * the keys it owns did not).
 */
public final class KeyedBackendRestore {
  /** Where a keyed operator's backend snapshot goes inside its operator snapshot directory. */
  public static final String SNAPSHOT_DIRECTORY = "keyed-state";

  /** Scratch space for the previous instances' snapshots, inside the instance's state directory. */
  static final String SCRATCH_DIRECTORY = "restore-scratch";

  private KeyedBackendRestore() {}

  /**
   * Opens a backend as {@code config} says (engine, directory, options) holding the state of {@code
   * restore} for instance {@code instance} of {@code parallelism}. Anything already in its
   * directory (files of an earlier attempt) is discarded.
   *
   * @throws io.arcon.state.CorruptSnapshotException naming the file when a snapshot is missing, cut
   *     or corrupt
   * @throws IllegalStateException when a snapshot holds a table whose layout is unknown
   */
  public static StateBackend open(
      StateBackendConfig config, OperatorRestore restore, int instance, int parallelism) {
    String engine = config.engine();
    Path directory = config.directory();
    StateBackend backend = StateBackends.open(config);
    try {
      if (!backend.tableNames().isEmpty()) {
        // Files of an earlier run in this directory: rows are only ever added to an empty backend.
        backend.dispose();
        backend = StateBackends.open(config);
      }
      if (restore.sameParallelism()) {
        SnapshotHandle own = handleOf(restore.ownDirectory(), restore.epoch());
        if (own.engine().equals(engine)) {
          backend.restore(own);
        } else {
          KeyGroupRestore.copyOwnedRows(
              backend, List.of(own), instance, parallelism, directory.resolve(SCRATCH_DIRECTORY));
        }
      } else {
        List<SnapshotHandle> previous = new ArrayList<>(restore.previousParallelism());
        for (int i = 0; i < restore.previousParallelism(); i++) {
          previous.add(handleOf(restore.directoryOf(i), restore.epoch()));
        }
        KeyGroupRestore.copyOwnedRows(
            backend, previous, instance, parallelism, directory.resolve(SCRATCH_DIRECTORY));
      }
      return backend;
    } catch (RuntimeException e) {
      backend.dispose();
      throw e;
    }
  }

  /**
   * The handle of the backend snapshot in an operator snapshot directory: its engine is what its
   * manifest says (the checkpoint may have been taken with another {@code --stateBackend}).
   */
  static SnapshotHandle handleOf(Path operatorDirectory, long epoch) {
    Path directory = operatorDirectory.resolve(SNAPSHOT_DIRECTORY);
    return new SnapshotHandle(SnapshotManifest.read(directory).engine(), epoch, directory);
  }
}
