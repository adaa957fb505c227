package io.arcon.runtime.epoch;

/**
 * An epoch's snapshot was asked for after the coordinator gave the epoch up (it timed out, an
 * instance declined it, or the attempt ended): its markers still travel through the graph, but
 * there is nothing to write any more. A node that meets it forwards the marker and takes no
 * snapshot; it never fails the job.
 */
public final class EpochGivenUpException extends IllegalStateException {
  private final long epoch;

  public EpochGivenUpException(long epoch, String jobName) {
    super("Epoch " + epoch + " of " + jobName + " was given up; its snapshot is not taken");
    this.epoch = epoch;
  }

  public long epoch() {
    return epoch;
  }

  /** Whether {@code failure} or one of its causes is an {@link EpochGivenUpException}. */
  public static boolean isCauseOf(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof EpochGivenUpException) {
        return true;
      }
    }
    return false;
  }
}
