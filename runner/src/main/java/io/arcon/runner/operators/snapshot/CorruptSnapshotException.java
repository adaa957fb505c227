package io.arcon.runner.operators.snapshot;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A snapshot file that cannot be restored: missing, truncated, altered, written by another operator
 * or by another format version. The message names the file; the checkpoint must not be loaded.
 */
public final class CorruptSnapshotException extends IOException {
  private final Path file;

  CorruptSnapshotException(Path file, String problem, Throwable cause) {
    super(
        "Cannot restore from snapshot file "
            + file
            + ": "
            + problem
            + ". The checkpoint is damaged or was not written by this pipeline; restore from"
            + " another checkpoint or start without --restoreFrom.",
        cause);
    this.file = file;
  }

  /** The file that could not be restored. */
  public Path file() {
    return file;
  }
}
