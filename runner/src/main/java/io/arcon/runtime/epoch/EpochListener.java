package io.arcon.runtime.epoch;

/** Told of each epoch's end (logs and metrics); called on the coordinator thread. */
public interface EpochListener {
  /** Epoch {@code epoch} committed after {@code durationMillis}; its files hold {@code bytes}. */
  void epochCompleted(long epoch, long durationMillis, long bytes);

  /** Epoch {@code epoch} was given up ({@code reason}); the job goes on. */
  void epochGivenUp(long epoch, String reason);
}
