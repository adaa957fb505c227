package io.arcon.state;

import java.nio.file.Path;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * A store of named {@link StateTable}s owned by exactly one node instance (one transform x parallel
 * index). Instances are used from a single thread at a time, so implementations need no internal
 * locking.
 *
 * <p>All engines ({@code heap}, {@code rocksdb}, {@code lmdb}) implement the same contract so that
 * a transform moves between them by configuration only. Obtain one through {@link
 * StateBackends#open}.
 */
public interface StateBackend extends AutoCloseable {

  /** The engine name, e.g. {@code "heap"}, {@code "rocksdb"} or {@code "lmdb"}. */
  String engine();

  /** Returns the table with this name, creating it on first use. Names are plain identifiers. */
  StateTable table(String name);

  /** Names of the tables that exist (created in this instance or restored). */
  Collection<String> tableNames();

  /** Approximate bytes held by all tables (memory for heap, disk/memtable for the others). */
  long approximateSizeBytes();

  /**
   * Writes a consistent, self-contained snapshot of every table into {@code directory} (which must
   * not exist yet or be empty) and returns a handle describing it. The snapshot includes a manifest
   * with checksums so that {@link #restore} can detect corruption or truncation.
   */
  SnapshotHandle snapshot(long epoch, Path directory);

  /**
   * Takes the same snapshot as {@link #snapshot} but returns as soon as the state at this moment
   * (the cut) is secured, finishing the rest (copying, checksumming, the manifest) on another
   * thread: the returned future completes with the handle once the snapshot is complete on disk, or
   * exceptionally when it failed. The caller keeps using the backend meanwhile; whatever it writes
   * after this call returns is not in the snapshot.
   *
   * <p>What runs before the return differs by engine: heap writes its tables (its memory changes in
   * place, so they must be written at the cut) and checksums them later; rocksdb flushes and
   * hard-links its immutable SST files, then checksums them later; lmdb copies the environment
   * later under the MVCC snapshot of the last commit, and defers its own commits until the copy is
   * done (the first one that is due waits for it).
   */
  default CompletableFuture<SnapshotHandle> snapshotAsync(long epoch, Path directory) {
    return CompletableFuture.completedFuture(snapshot(epoch, directory));
  }

  /**
   * Replaces the whole content of this backend with the snapshot. Throws {@link
   * CorruptSnapshotException} (and leaves the current content untouched) when the snapshot is
   * missing files, truncated or fails its checksums. A snapshot of another engine is refused with
   * {@link IllegalArgumentException}. Tables obtained before the restore stay usable; those the
   * snapshot does not contain come back empty.
   */
  void restore(SnapshotHandle handle);

  /**
   * Makes every write so far durable in the backend's own directory, so that reopening the
   * directory after the process dies (even without {@link #close}) finds it. A no-op for {@code
   * heap}, which keeps nothing on disk. Snapshots do not need it: {@link #snapshot} is always
   * complete.
   */
  default void flush() {}

  /**
   * Releases memory and file handles; persistent files stay where they are and hold every write
   * (reopening the directory recovers the tables).
   */
  @Override
  void close();

  /** Closes the backend and deletes every file it owns (not snapshots written elsewhere). */
  void dispose();
}
