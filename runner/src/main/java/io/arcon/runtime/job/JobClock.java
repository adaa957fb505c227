package io.arcon.runtime.job;

/** The processing-time clock shared by all nodes of a job. */
public interface JobClock {
  long nowMillis();

  JobClock SYSTEM = System::currentTimeMillis;
}
