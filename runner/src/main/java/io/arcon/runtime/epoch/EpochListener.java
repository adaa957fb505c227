package io.arcon.runtime.epoch;

/** Told of each epoch's end (logs and metrics); called on the coordinator thread. */
public interface EpochListener {
  /** Epoch {@code epoch} committed after {@code durationMillis}; its files hold {@code bytes}. */
  void epochCompleted(long epoch, long durationMillis, long bytes);

  /** Epoch {@code epoch} was given up ({@code reason}); the job goes on. */
  void epochGivenUp(long epoch, String reason);

  /** One listener that tells each of {@code listeners}, in order. */
  static EpochListener all(EpochListener... listeners) {
    return new EpochListener() {
      @Override
      public void epochCompleted(long epoch, long durationMillis, long bytes) {
        for (EpochListener l : listeners) {
          l.epochCompleted(epoch, durationMillis, bytes);
        }
      }

      @Override
      public void epochGivenUp(long epoch, String reason) {
        for (EpochListener l : listeners) {
          l.epochGivenUp(epoch, reason);
        }
      }
    };
  }
}
