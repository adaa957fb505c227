package io.arcon.runtime.checkpoint;

/**
 * A checkpoint written in another checkpoint format than this runner reads: intact, but laid out
 * for another ArconRunner version. Not a {@link CorruptCheckpointException}: an older epoch of the
 * same run has the same format, so the remedy is the version that wrote it, not another epoch.
 */
public final class CheckpointFormatException extends IllegalStateException {
  public CheckpointFormatException(String message) {
    super(message);
  }
}
