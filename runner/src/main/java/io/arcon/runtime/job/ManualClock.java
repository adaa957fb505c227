package io.arcon.runtime.job;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A processing-time clock that only moves when told to (Beam's {@code TestStream} advancing
 * processing time).
 */
public final class ManualClock implements JobClock {
  private final AtomicLong now;

  public ManualClock(long startMillis) {
    this.now = new AtomicLong(startMillis);
  }

  @Override
  public long nowMillis() {
    return now.get();
  }

  @Override
  public boolean isManual() {
    return true;
  }

  public void advance(long millis) {
    now.addAndGet(millis);
  }

  /** Sets the time (a restored job resumes at its checkpoint's time, which may be earlier). */
  public void set(long millis) {
    now.set(millis);
  }
}
