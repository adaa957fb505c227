package io.arcon.state.snapshot;

import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackendException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Restores a persistent engine whose whole state is one directory: copy the verified snapshot to a
 * staging directory, close the engine, swap the directories atomically and reopen. If the swap or
 * the reopen fails, the previous files are put back and reopened, so a failed restore never loses
 * the current state.
 */
public final class DirectorySwap {
  private DirectorySwap() {}

  /**
   * @param engineLabel how messages name the engine ("RocksDB", "LMDB")
   * @param root the backend's directory, where staging and previous copies are made
   * @param live the engine's live directory inside {@code root}
   * @param close closes the engine's handles on {@code live}
   * @param open opens the engine on {@code live}
   */
  public static void restore(
      SnapshotHandle handle,
      SnapshotManifest manifest,
      String engineLabel,
      Path root,
      Path live,
      Runnable close,
      Runnable open) {
    // Stage a private copy first: a failed copy leaves the running engine untouched, and the copy
    // (not the snapshot's files) is what the reopened engine writes to.
    String name = live.getFileName().toString();
    Path staging = root.resolve(name + ".restoring");
    Path previous = root.resolve(name + ".previous");
    FileTrees.deleteRecursively(staging);
    FileTrees.deleteRecursively(previous);
    FileTrees.copySnapshotFiles(manifest, handle.directory(), staging);

    close.run();
    try {
      Files.move(live, previous, StandardCopyOption.ATOMIC_MOVE);
      Files.move(staging, live, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      putBackAndReopen(engineLabel, live, previous, open);
      throw new StateBackendException(
          "Cannot swap the restored " + engineLabel + " files into " + live + ": " + e, e);
    }
    try {
      open.run();
    } catch (RuntimeException e) {
      FileTrees.deleteRecursively(live);
      putBackAndReopen(engineLabel, live, previous, open);
      throw new StateBackendException(
          "The restored snapshot " + handle.directory() + " does not open: " + e.getMessage(), e);
    }
    FileTrees.deleteRecursively(previous);
  }

  private static void putBackAndReopen(
      String engineLabel, Path live, Path previous, Runnable open) {
    try {
      if (Files.exists(previous) && !Files.exists(live)) {
        Files.move(previous, live, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      throw new StateBackendException(
          "Restore failed and the previous "
              + engineLabel
              + " files in "
              + previous
              + " could not be put back",
          e);
    }
    open.run();
  }
}
