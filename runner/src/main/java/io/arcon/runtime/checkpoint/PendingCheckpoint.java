package io.arcon.runtime.checkpoint;

import io.arcon.runtime.checkpoint.CheckpointLayout.VertexLayout;
import io.arcon.state.snapshot.FileTrees;
import io.arcon.state.snapshot.SnapshotManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An epoch being written: node instances put their operators' snapshots into {@link
 * #operatorDirectory}, then the coordinator {@link #commit commits} it (or {@link #abort aborts}
 * it). Until its manifest exists the epoch directory is incomplete and is never loaded.
 */
public final class PendingCheckpoint {
  private static final Logger LOG = LoggerFactory.getLogger(PendingCheckpoint.class);

  private enum State {
    OPEN,
    COMMITTED,
    ABORTED
  }

  private final CheckpointStore store;
  private final long epoch;
  private final Path directory;
  // Node threads create directories under the read lock; commit and abort take the write lock, so
  // no directory appears in an epoch while it is checksummed or deleted.
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private State state = State.OPEN;

  PendingCheckpoint(CheckpointStore store, long epoch, Path directory) {
    this.store = store;
    this.epoch = epoch;
    this.directory = directory;
  }

  public long epoch() {
    return epoch;
  }

  /** Whether the epoch was aborted (its files removed; nothing may be written into it). */
  public boolean isAborted() {
    lock.readLock().lock();
    try {
      return state == State.ABORTED;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The epoch's directory (incomplete until committed). */
  public Path directory() {
    return directory;
  }

  /**
   * The directory private to operator {@code operatorIndex} of instance {@code instance} of vertex
   * {@code vertexId} in this epoch, created on demand. Safe to call from several threads.
   *
   * @throws IllegalStateException after commit or abort
   */
  public Path operatorDirectory(int vertexId, int instance, int operatorIndex) {
    if (vertexId < 0 || instance < 0 || operatorIndex < 0) {
      throw new IllegalArgumentException(
          "Vertex id, instance and operator index must be >= 0, got "
              + vertexId
              + ", "
              + instance
              + ", "
              + operatorIndex);
    }
    lock.readLock().lock();
    try {
      requireOpen("write into");
      Path d = CheckpointFiles.operatorDirectory(directory, vertexId, instance, operatorIndex);
      Files.createDirectories(d);
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create checkpoint directory in " + directory + ": " + e, e);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Makes the epoch a complete checkpoint: records {@code layout} and the finished instances,
   * checksums every file (CRC32C) into the manifest, written last and atomically, then deletes the
   * epochs beyond the store's retention. Call once every node instance acknowledged the epoch and
   * every asynchronous snapshot part completed. On failure the epoch is aborted and the error
   * rethrown.
   *
   * @param layout the job graph the epoch was taken of; its job name is the store's
   * @param finishedInstances instances that had ended all their work before the epoch reached them
   * @param startedAtMillis when the coordinator triggered the epoch
   */
  public CompletedCheckpoint commit(
      CheckpointLayout layout, Set<InstanceId> finishedInstances, long startedAtMillis) {
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(finishedInstances, "finishedInstances");
    for (InstanceId id : finishedInstances) {
      if (!layout.contains(id)) {
        throw new IllegalArgumentException(
            "Finished instance " + id + " (vertex/instance) is not part of the layout");
      }
    }
    CompletedCheckpoint completed;
    lock.writeLock().lock();
    try {
      requireOpen("commit");
      store.commitLock().lock();
      try {
        store.checkCommittable(this, layout);
        try {
          completed = write(layout, finishedInstances, startedAtMillis);
        } catch (IOException | RuntimeException e) {
          state = State.ABORTED;
          deleteQuietly();
          store.forget(this);
          if (e instanceof RuntimeException r) {
            throw r;
          }
          throw new UncheckedIOException(
              "Could not commit checkpoint epoch " + epoch + " in " + directory + ": " + e,
              (IOException) e);
        }
        state = State.COMMITTED;
        store.committed(this, completed);
      } finally {
        store.commitLock().unlock();
      }
    } finally {
      lock.writeLock().unlock();
    }
    return completed;
  }

  /** Deletes the epoch's directory; nothing after a commit (a committed epoch stays). */
  public void abort() {
    lock.writeLock().lock();
    try {
      if (state != State.OPEN) {
        return;
      }
      state = State.ABORTED;
      deleteQuietly();
    } finally {
      lock.writeLock().unlock();
    }
    store.forget(this);
  }

  private CompletedCheckpoint write(
      CheckpointLayout layout, Set<InstanceId> finishedInstances, long startedAtMillis)
      throws IOException {
    List<String> files = new ArrayList<>();
    List<Path> directories = new ArrayList<>();
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isDirectory(p)) {
          directories.add(p);
        } else {
          files.add(directory.relativize(p).toString().replace('\\', '/'));
          bytes += Files.size(p);
        }
      }
    }
    Set<CompletedCheckpoint.OperatorSlot> withState =
        CompletedCheckpoint.operatorsWithState(files, layout, directory, false);
    // A restore hands a stateful operator the directory of every previous instance; instances
    // that saved nothing (e.g. finished ones) get an empty one, so every listed directory exists.
    for (CompletedCheckpoint.OperatorSlot slot : withState) {
      VertexLayout v = layout.vertex(slot.vertexId()).orElseThrow();
      for (int i = 0; i < v.parallelism(); i++) {
        Path d = CheckpointFiles.operatorDirectory(directory, v.id(), i, slot.operatorIndex());
        if (!Files.isDirectory(d)) {
          Files.createDirectories(d);
          directories.add(d);
        }
      }
    }
    CheckpointMetadata metadata =
        new CheckpointMetadata(
            epoch, layout, finishedInstances, startedAtMillis, System.currentTimeMillis());
    Path metadataFile = directory.resolve(CheckpointFiles.METADATA);
    metadata.write(metadataFile);
    // Directory entries must be durable before the manifest is: a manifest that survives a crash
    // while a file's entry does not would turn a complete epoch into a corrupt one.
    directories.sort(Comparator.comparingInt(Path::getNameCount).reversed());
    for (Path d : directories) {
      FileTrees.fsyncDirectory(d);
    }
    FileTrees.fsyncDirectory(directory.getParent());
    SnapshotManifest.write(CheckpointFiles.ENGINE, epoch, directory);
    long size =
        bytes + Files.size(metadataFile) + Files.size(directory.resolve(CheckpointFiles.MANIFEST));
    return new CompletedCheckpoint(directory, metadata, size, files.size() + 2, withState);
  }

  private void requireOpen(String what) {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          "Cannot "
              + what
              + " checkpoint epoch "
              + epoch
              + ": it was already "
              + state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  private void deleteQuietly() {
    try {
      FileTrees.deleteRecursively(directory);
    } catch (RuntimeException e) {
      // A node may still be writing into it. An epoch without a manifest is never loaded, and the
      // next commit's retention (or the next run's CheckpointStore.open) removes it.
      LOG.info(
          "The aborted checkpoint {} is removed later, with the next completed epoch: {}",
          directory,
          e.toString());
    }
  }
}
