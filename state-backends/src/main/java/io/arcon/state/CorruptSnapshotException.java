package io.arcon.state;

import java.nio.file.Path;

/** A snapshot that is missing, truncated, or fails its checksums; never loaded. */
public class CorruptSnapshotException extends StateBackendException {
  private final Path file;

  public CorruptSnapshotException(String message) {
    this(message, (Path) null);
  }

  public CorruptSnapshotException(String message, Throwable cause) {
    super(message, cause);
    this.file = null;
  }

  /** A snapshot whose file {@code file} is missing, truncated or corrupt. */
  public CorruptSnapshotException(String message, Path file) {
    super(message);
    this.file = file;
  }

  /** The damaged file, when one file is at fault; null otherwise. */
  public Path file() {
    return file;
  }
}
