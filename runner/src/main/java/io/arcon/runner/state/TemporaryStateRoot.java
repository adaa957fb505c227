package io.arcon.runner.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's temporary directory for its persistent engines' files (rocksdb, lmdb), used when the user
 * gave no {@code --stateDir}: created in {@code java.io.tmpdir}, deleted when the job ends.
 *
 * <p>Why a lock: a JVM that is killed ({@code kill -9}, out of memory, a power cut) never deletes
 * its directory, and a rocksdb or lmdb state can be gigabytes. Every root holds an exclusive lock
 * on a file inside it for as long as its run lives; the operating system drops the lock when the
 * process dies, whatever killed it. The first run of every JVM deletes, in the background, the
 * roots whose lock it can take: their owner is gone. A lock works across processes and containers
 * that share the directory, where a process id would not.
 */
public final class TemporaryStateRoot {
  private static final Logger LOG = LoggerFactory.getLogger(TemporaryStateRoot.class);

  /** Name prefix of every temporary state root. */
  static final String PREFIX = "arcon-state-";

  /** Name prefix of a root being created, before it holds its lock (never swept). */
  private static final String UNLOCKED_PREFIX = ".arcon-state-new-";

  /** How old an unrenamed root must be before a sweep takes it for a dead process's. */
  private static final long UNLOCKED_AGE_MILLIS = 3_600_000;

  /** The file whose lock says that a root's run is alive. */
  static final String LOCK_FILE = ".owner.lock";

  private static final AtomicBoolean SWEPT = new AtomicBoolean();

  private final Path directory;
  private final FileChannel lockChannel;

  private TemporaryStateRoot(Path directory, FileChannel lockChannel) {
    this.directory = directory;
    this.lockChannel = lockChannel;
  }

  /**
   * Creates a new root in {@code java.io.tmpdir}, locked by this process; the first call in a JVM
   * also starts the removal of roots whose process is gone.
   */
  public static TemporaryStateRoot create() {
    Path temp = Path.of(System.getProperty("java.io.tmpdir"));
    if (SWEPT.compareAndSet(false, true)) {
      Thread sweeper = new Thread(() -> sweepAbandoned(temp), "arcon-state-sweeper");
      sweeper.setDaemon(true);
      sweeper.start();
    }
    return createIn(temp);
  }

  /**
   * Creates a new root in {@code parent}, locked by this process.
   *
   * <p>The directory is made and locked under a name the sweep does not look at, then renamed to
   * its root name: a root that a sweep can see is always locked by its live owner (a sweep, in this
   * JVM or another, that came between the directory and its lock would take the lock itself, judge
   * the new root abandoned and delete it).
   */
  static TemporaryStateRoot createIn(Path parent) {
    Path unlocked;
    try {
      unlocked = Files.createTempDirectory(parent, UNLOCKED_PREFIX);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create a temporary state directory in "
              + parent
              + " ("
              + e
              + "). Free space there, set -Djava.io.tmpdir to a writable directory, or give"
              + " --stateDir.",
          e);
    }
    FileChannel channel = null;
    Path directory = unlocked;
    try {
      channel =
          FileChannel.open(
              unlocked.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      if (channel.tryLock() == null) {
        throw new IOException("the lock of a directory just created is held elsewhere");
      }
      // The lock belongs to the file, which a rename keeps.
      directory =
          Files.move(
              unlocked,
              parent.resolve(
                  PREFIX + unlocked.getFileName().toString().substring(UNLOCKED_PREFIX.length())),
              StandardCopyOption.ATOMIC_MOVE);
      return new TemporaryStateRoot(directory, channel);
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      deleteRecursively(directory);
      throw new UncheckedIOException(
          "Cannot lock the temporary state directory " + directory + " (" + e + ")",
          e instanceof IOException io ? io : new IOException(e));
    }
  }

  public Path path() {
    return directory;
  }

  /**
   * Deletes the directory with everything in it: its contents while the lock is held, then the lock
   * (a sweep that takes it meanwhile finds an empty root, which it may delete just as well).
   */
  public void delete() {
    try (Stream<Path> files = Files.walk(directory)) {
      Path lockFile = directory.resolve(LOCK_FILE);
      files
          .sorted(Comparator.reverseOrder())
          .filter(p -> !p.equals(lockFile) && !p.equals(directory))
          .forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // Removed below, or by the next sweep.
    }
    closeQuietly(lockChannel);
    deleteRecursively(directory);
  }

  /**
   * Deletes every root in {@code parent} whose lock can be taken, i.e. whose process has ended
   * without deleting it. Returns how many were deleted. Roots of live processes (their lock is
   * held), of this JVM, and anything else in {@code parent} are left alone.
   */
  static int sweepAbandoned(Path parent) {
    int deleted = 0;
    try (DirectoryStream<Path> roots = Files.newDirectoryStream(parent, PREFIX + "*")) {
      for (Path root : roots) {
        if (Files.isDirectory(root) && isAbandoned(root)) {
          deleteRecursively(root);
          LOG.info("Deleted {}, the state directory of a run whose process is gone", root);
          deleted++;
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Could not look for abandoned state directories in {}", parent, e);
    }
    // A process that died between making a root and renaming it (milliseconds) left it unlocked.
    try (DirectoryStream<Path> unlocked = Files.newDirectoryStream(parent, UNLOCKED_PREFIX + "*")) {
      long before = System.currentTimeMillis() - UNLOCKED_AGE_MILLIS;
      for (Path root : unlocked) {
        if (Files.isDirectory(root)
            && Files.getLastModifiedTime(root).toMillis() < before
            && isAbandoned(root)) {
          deleteRecursively(root);
          deleted++;
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Could not look for unfinished state directories in {}", parent, e);
    }
    return deleted;
  }

  /**
   * Whether {@code root}'s owner is gone: its lock file exists and its lock can be taken. A root
   * without a lock file is not ours to judge (another program's, or one being created).
   */
  private static boolean isAbandoned(Path root) {
    Path lockFile = root.resolve(LOCK_FILE);
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        return false; // another process holds it: its run is alive
      }
      lock.release();
      return true;
    } catch (OverlappingFileLockException e) {
      return false; // this JVM holds it
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return false; // not ours to open (another user's), or gone
    }
  }

  private static void deleteRecursively(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // Temporary files: what is left here goes with the next sweep or the OS's cleaning.
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close(); // releases the lock
    } catch (IOException ignored) {
      // Closing a lock file: nothing to recover.
    }
  }
}
