package io.arcon.runtime.checkpoint;

/**
 * A checkpoint that is incomplete, truncated, or fails its checksums; it is never loaded. The
 * message names the damaged file and says what to do instead (usually: restore an older epoch).
 */
public class CorruptCheckpointException extends IllegalStateException {
  public CorruptCheckpointException(String message) {
    super(message);
  }

  public CorruptCheckpointException(String message, Throwable cause) {
    super(message, cause);
  }
}
