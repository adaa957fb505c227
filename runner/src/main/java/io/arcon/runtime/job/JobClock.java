package io.arcon.runtime.job;

/** The processing-time clock shared by all nodes of a job. */
public interface JobClock {
  long nowMillis();

  /** A manual clock never advances by itself, so nodes do not schedule wake-ups against it. */
  default boolean isManual() {
    return false;
  }

  JobClock SYSTEM = System::currentTimeMillis;
}
