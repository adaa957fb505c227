package io.arcon.portability.jobservice;

import io.arcon.portability.execution.PortableJob;
import io.arcon.portability.execution.PortableJobSpec;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link JobStarter} that starts {@link ControlledJob}s and hands each to the test. */
final class ControlledJobs implements JobStarter {

  private final LinkedBlockingQueue<ControlledJob> started = new LinkedBlockingQueue<>();

  @Override
  public PortableJob start(PortableJobSpec spec) {
    ControlledJob job = new ControlledJob(spec);
    started.add(job);
    return job;
  }

  /** The job the last Run started (Run returns after the start, so it is there). */
  ControlledJob next() throws InterruptedException {
    ControlledJob job = started.poll(30, TimeUnit.SECONDS);
    if (job == null) {
      throw new AssertionError("no job was started");
    }
    return job;
  }
}
