package io.arcon.state;

/** A snapshot that is missing, truncated, or fails its checksums; never loaded. */
public class CorruptSnapshotException extends StateBackendException {
  public CorruptSnapshotException(String message) {
    super(message);
  }

  public CorruptSnapshotException(String message, Throwable cause) {
    super(message, cause);
  }
}
