package io.arcon.runner.operators;

import io.arcon.runtime.operator.OperatorRestore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which previous instances' snapshots an operator instance reads on a restore: its own with an
 * unchanged parallelism, every one after a change (keyed content is then filtered by key group,
 * positions redistributed). Instances that had ended before the epoch reached them left an empty
 * directory and are skipped: nothing of theirs was left to resume.
 */
final class RestoredInstances {
  private RestoredInstances() {}

  /** The previous instance indexes to read, in ascending order. */
  static List<Integer> toRead(OperatorRestore restore, int instance) {
    List<Integer> previous = new ArrayList<>();
    if (restore.sameParallelism()) {
      previous.add(instance);
    } else {
      for (int i = 0; i < restore.previousParallelism(); i++) {
        previous.add(i);
      }
    }
    previous.removeIf(i -> finishedBeforeCut(restore.directoryOf(i)));
    return previous;
  }

  /**
   * True for the empty directory of an instance that had ended all its work before the epoch
   * reached it. (A file missing from a non-empty directory is damage; the epoch's manifest lists
   * every file, so a checkpoint that lost one is refused before any operator opens.)
   */
  static boolean finishedBeforeCut(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.findAny().isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list snapshot directory " + directory, e);
    }
  }
}
