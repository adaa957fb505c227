package io.arcon.runtime.checkpoint;

/**
 * A checkpoint that is intact but was written by another pipeline (another DoFn at a step of the
 * same name): restoring it can never succeed, so the job fails at once instead of retrying.
 */
public final class IncompatibleCheckpointException extends IllegalStateException {
  public IncompatibleCheckpointException(String message) {
    super(message);
  }

  /**
   * True when {@code failure} or one of its causes says the checkpoint being restored can never be
   * restored by this pipeline: another pipeline's, another format's, or damaged. A retry restores
   * the same checkpoint and fails the same way.
   */
  public static boolean isBehind(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof IncompatibleCheckpointException
          || t instanceof CheckpointFormatException
          || t instanceof CorruptCheckpointException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
