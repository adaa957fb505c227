package io.arcon.runtime.checkpoint;

import io.arcon.runtime.checkpoint.CheckpointFiles.EpochDirectory;
import io.arcon.state.snapshot.FileTrees;
import io.arcon.tss.model.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of one job: the directory {@code checkpointDir/<job name>}, locked by the live
 * run, holding one {@code epoch-N} directory per epoch. Begins epochs, commits them through {@link
 * PendingCheckpoint}, keeps the newest {@code retained} complete ones and finds the latest.
 */
public final class CheckpointStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);

  /** Job directories (real paths) that a store of this JVM holds. */
  private static final Set<Path> LOCKED_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path jobDirectory;
  private final Path lockKey;
  private final String jobName;
  private final int retained;
  private final FileChannel lockChannel;
  private final FileLock lock;
  // Serializes commits (and their retention) with each other and with latest(), so latest() never
  // reads an epoch that retention is deleting.
  private final ReentrantLock commitLock = new ReentrantLock();
  private final Map<Long, PendingCheckpoint> pending = new HashMap<>();
  private long lastEpoch;
  private boolean closed;

  private CheckpointStore(
      Path jobDirectory,
      Path lockKey,
      String jobName,
      int retained,
      FileChannel lockChannel,
      FileLock lock,
      long lastEpoch) {
    this.jobDirectory = jobDirectory;
    this.lockKey = lockKey;
    this.jobName = jobName;
    this.retained = retained;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.lastEpoch = lastEpoch;
  }

  /**
   * Opens (creating it if needed) the checkpoint directory of job {@code jobName} under {@code
   * checkpointDir}, locks it against other runs and removes the incomplete epochs a crashed run
   * left.
   *
   * @param retained how many complete epochs to keep, >= 1
   * @throws IllegalStateException when another live run holds the job directory
   */
  public static CheckpointStore open(Path checkpointDir, String jobName, int retained) {
    Objects.requireNonNull(checkpointDir, "checkpointDir");
    Objects.requireNonNull(jobName, "jobName");
    if (retained < 1) {
      throw new IllegalArgumentException(
          "The number of retained checkpoints must be >= 1, got "
              + retained
              + ": a restart needs at least the latest checkpoint (--retainedCheckpoints)");
    }
    // The sanitized name has only [A-Za-z0-9_]: no separator or "..", so it stays a child of
    // checkpointDir whatever the job is called.
    Path root = checkpointDir.toAbsolutePath().normalize();
    Path jobDirectory = root.resolve(Names.sanitize(jobName));
    if (!root.equals(jobDirectory.getParent())) {
      throw new IllegalArgumentException(
          "Job name '" + jobName + "' does not give a directory inside " + root);
    }
    try {
      Files.createDirectories(jobDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the checkpoint directory "
              + jobDirectory
              + " ("
              + e
              + "): give a writable --checkpointDir",
          e);
    }
    Path lockFile = jobDirectory.resolve(CheckpointFiles.LOCK);
    Path lockKey = realPath(jobDirectory);
    // File locks belong to the process, and closing any descriptor of the file drops them (POSIX),
    // so a second store of this JVM is refused before it opens the file.
    if (!LOCKED_IN_THIS_JVM.add(lockKey)) {
      throw inUse(jobDirectory, lockFile, "a job of this process");
    }
    FileChannel channel;
    FileLock lock;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      LOCKED_IN_THIS_JVM.remove(lockKey);
      throw new UncheckedIOException("Cannot open " + lockFile + ": " + e, e);
    }
    try {
      lock = channel.tryLock();
    } catch (IOException | OverlappingFileLockException e) {
      closeQuietly(channel);
      LOCKED_IN_THIS_JVM.remove(lockKey);
      throw new IllegalStateException("Cannot lock " + lockFile + ": " + e, e);
    }
    if (lock == null) {
      closeQuietly(channel);
      LOCKED_IN_THIS_JVM.remove(lockKey);
      throw inUse(jobDirectory, lockFile, holderOf(lockFile));
    }
    try {
      // Who holds the lock, for the message another run gets.
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              ("process " + ProcessHandle.current().pid() + "\n")
                  .getBytes(StandardCharsets.UTF_8)));
      long last = 0;
      for (EpochDirectory e : CheckpointFiles.epochs(jobDirectory)) {
        if (e.hasManifest()) {
          last = Math.max(last, e.epoch());
        } else {
          LOG.info(
              "Removing incomplete checkpoint {} left by a run that stopped before committing it",
              e.path());
          FileTrees.deleteRecursively(e.path());
        }
      }
      return new CheckpointStore(jobDirectory, lockKey, jobName, retained, channel, lock, last);
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      LOCKED_IN_THIS_JVM.remove(lockKey);
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new UncheckedIOException("Cannot prepare " + jobDirectory + ": " + e, (IOException) e);
    }
  }

  /**
   * Starts epoch {@code epoch}: a new, incomplete epoch directory.
   *
   * @param epoch greater than {@link #lastEpoch()} and not in progress already
   */
  public synchronized PendingCheckpoint begin(long epoch) {
    requireOpen();
    if (epoch <= lastEpoch || epoch < 1) {
      throw new IllegalArgumentException(
          "Epoch "
              + epoch
              + " does not follow the last committed epoch "
              + lastEpoch
              + " of "
              + jobDirectory
              + ": number epochs from lastEpoch() + 1");
    }
    if (pending.containsKey(epoch)) {
      throw new IllegalStateException("Epoch " + epoch + " is already in progress");
    }
    Path directory = jobDirectory.resolve(CheckpointFiles.epochDirectoryName(epoch));
    // Only a failed abort leaves one behind; it has no manifest, so it holds nothing to keep.
    FileTrees.deleteRecursively(directory);
    try {
      Files.createDirectory(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + directory + ": " + e, e);
    }
    PendingCheckpoint p = new PendingCheckpoint(this, epoch, directory);
    pending.put(epoch, p);
    return p;
  }

  /**
   * The newest complete epoch, verified (sizes and checksums of all its files); empty when none
   * committed yet. Incomplete epochs are skipped.
   *
   * @throws CorruptCheckpointException when the newest complete epoch is damaged (never silently
   *     replaced by an older one: its successors' effects may already be visible outside)
   */
  public Optional<CompletedCheckpoint> latest() {
    commitLock.lock();
    try {
      return CompletedCheckpoint.latestIn(jobDirectory);
    } finally {
      commitLock.unlock();
    }
  }

  /** {@code checkpointDir/<sanitized job name>}. */
  public Path jobDirectory() {
    return jobDirectory;
  }

  /** The highest committed epoch, 0 when none: the next epoch is {@code lastEpoch() + 1}. */
  public synchronized long lastEpoch() {
    return lastEpoch;
  }

  /** How many complete epochs are kept. */
  public int retained() {
    return retained;
  }

  /** Aborts the epochs in progress and releases the directory's lock. */
  @Override
  public void close() {
    List<PendingCheckpoint> inProgress;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      inProgress = new ArrayList<>(pending.values());
    }
    // Outside the monitor: an abort waits for a commit in flight, which itself needs the monitor.
    for (PendingCheckpoint p : inProgress) {
      p.abort();
    }
    try {
      lock.release();
    } catch (IOException e) {
      LOG.warn("Could not release the lock of {}: {}", jobDirectory, e.toString());
    } finally {
      closeQuietly(lockChannel);
      LOCKED_IN_THIS_JVM.remove(lockKey);
    }
  }

  /**
   * Closes the store and deletes every checkpoint of the job: for a job that finished, which has
   * nothing left to resume (as Flink discards the checkpoints of a finished job).
   */
  public void closeAndDiscard() {
    close();
    FileTrees.deleteRecursively(jobDirectory);
  }

  ReentrantLock commitLock() {
    return commitLock;
  }

  synchronized void checkCommittable(PendingCheckpoint p, CheckpointLayout layout) {
    requireOpen();
    if (!jobName.equals(layout.jobName())) {
      throw new IllegalArgumentException(
          "The layout is of job '"
              + layout.jobName()
              + "' but the checkpoints in "
              + jobDirectory
              + " are of job '"
              + jobName
              + "'");
    }
    if (p.epoch() <= lastEpoch) {
      throw new IllegalStateException(
          "Epoch " + p.epoch() + " cannot commit after epoch " + lastEpoch + " committed");
    }
  }

  /** Records a commit and deletes the epochs beyond retention. Called under the commit lock. */
  void committed(PendingCheckpoint p, CompletedCheckpoint completed) {
    List<Long> live;
    synchronized (this) {
      pending.remove(p.epoch());
      lastEpoch = Math.max(lastEpoch, completed.epoch());
      live = new ArrayList<>(pending.keySet());
    }
    // The epoch is committed whatever happens here: a failed deletion only keeps an old epoch.
    List<EpochDirectory> epochs;
    try {
      epochs = CheckpointFiles.epochs(jobDirectory);
    } catch (UncheckedIOException e) {
      LOG.warn("Could not list {} to delete old checkpoints: {}", jobDirectory, e.toString());
      return;
    }
    int kept = 0;
    for (int i = epochs.size() - 1; i >= 0; i--) {
      EpochDirectory e = epochs.get(i);
      if (e.epoch() > completed.epoch() || live.contains(e.epoch())) {
        continue; // an epoch still being written
      }
      if (e.hasManifest() && ++kept <= retained) {
        continue;
      }
      delete(e);
    }
  }

  synchronized void forget(PendingCheckpoint p) {
    pending.remove(p.epoch(), p);
  }

  /**
   * Deletes an epoch, its manifest first: a crash midway leaves an incomplete epoch (removed by the
   * next open), never one that looks complete with files missing.
   */
  private static void delete(EpochDirectory e) {
    try {
      Files.deleteIfExists(e.path().resolve(CheckpointFiles.MANIFEST));
      FileTrees.fsyncDirectory(e.path());
      FileTrees.deleteRecursively(e.path());
    } catch (IOException | RuntimeException ex) {
      LOG.warn("Could not delete old checkpoint {}: {}", e.path(), ex.toString());
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("The checkpoint store of " + jobDirectory + " is closed");
    }
  }

  private static IllegalStateException inUse(Path jobDirectory, Path lockFile, String holder) {
    return new IllegalStateException(
        "Checkpoint directory "
            + jobDirectory
            + " is in use by another running job ("
            + holder
            + " holds "
            + lockFile
            + "): two runs must not write one job's checkpoints. Stop the other run, or give"
            + " this one another --jobName or --checkpointDir");
  }

  private static Path realPath(Path directory) {
    try {
      return directory.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot resolve " + directory + ": " + e, e);
    }
  }

  /**
   * What the holder wrote into the lock file. Only for a file this process does not lock: closing
   * any descriptor of a file drops the process's POSIX locks on it.
   */
  private static String holderOf(Path lockFile) {
    try {
      String holder = Files.readString(lockFile, StandardCharsets.UTF_8).trim();
      return holder.isEmpty() ? "another process" : holder;
    } catch (IOException e) {
      return "another process";
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("Closing a lock channel failed", e);
    }
  }
}
