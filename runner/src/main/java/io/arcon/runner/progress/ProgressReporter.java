package io.arcon.runner.progress;

import io.arcon.runtime.job.JobMonitor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Prints a job's progress: every {@code --progressPeriodMillis} a line with what its sources read
 * (see {@link ProgressLine}), and one line when the job ends. Runs on one daemon thread per job, so
 * it never keeps the JVM alive, and stops when the job ends.
 *
 * <p>Used by the runner in three steps: {@link #prepare} before the pipeline is translated, {@link
 * #start} once the job runs, {@link #finish} when it ended.
 */
public final class ProgressReporter {
  private final String jobName;
  private final ProgressSettings settings;
  private final ReadProgress reads;
  private final long preparedAtNanos = System.nanoTime();

  /** Guards the fields below and the output, so the final line is printed once and last. */
  private final Object lock = new Object();

  private JobMonitor monitor;
  private ScheduledExecutorService timer;
  private boolean finished;
  private long lastElements;
  private long lastLineNanos;

  private ProgressReporter(String jobName, ProgressSettings settings, ReadProgress reads) {
    this.jobName = jobName;
    this.settings = settings;
    this.reads = reads;
    this.lastLineNanos = preparedAtNanos;
  }

  /**
   * Checks the progress options (throwing {@link IllegalArgumentException} on bad ones) and gives
   * the options a new {@link ReadProgress} for this run, which its sources find there. Elapsed time
   * counts from here.
   */
  public static ProgressReporter prepare(ProgressOptions options) {
    ProgressSettings settings = ProgressSettings.of(options);
    return new ProgressReporter(options.getJobName(), settings, new ReadProgress());
  }

  /** The counters of this run's sources. */
  public ReadProgress reads() {
    return reads;
  }

  /**
   * Starts printing lines, if progress is enabled, until the job ends (then {@link #finish} runs by
   * itself; the runner also calls it, so the final line is out before {@code waitUntilFinish}
   * returns).
   */
  public void start(JobMonitor monitor) {
    if (!settings.enabled()) {
      return;
    }
    synchronized (lock) {
      if (this.monitor != null) {
        throw new IllegalStateException("The progress of " + jobName + " is already reported");
      }
      this.monitor = monitor;
      timer =
          Executors.newSingleThreadScheduledExecutor(
              task -> {
                Thread thread = new Thread(task, "arcon-progress-" + jobName);
                thread.setDaemon(true);
                return thread;
              });
      timer.scheduleAtFixedRate(
          this::printRunning,
          settings.periodMillis(),
          settings.periodMillis(),
          TimeUnit.MILLISECONDS);
    }
    monitor.outcome().whenComplete((outcome, failure) -> finish());
  }

  private void printRunning() {
    synchronized (lock) {
      if (finished || monitor.outcome().isDone()) {
        return;
      }
      long now = System.nanoTime();
      ReadProgress.Totals totals = reads.total();
      // A restarted attempt starts its counts over: its rate counts from zero, not negative.
      long readSinceLast = totals.elements() - Math.min(lastElements, totals.elements());
      double seconds = Math.max(1, now - lastLineNanos) / 1e9;
      settings
          .out()
          .println(
              ProgressLine.running(jobName, totals, readSinceLast / seconds, millisSince(now)));
      settings.out().flush();
      lastElements = totals.elements();
      lastLineNanos = now;
    }
  }

  /**
   * Prints the final line (DONE, FAILED or CANCELLED with the totals) and stops the thread; once,
   * whoever calls first. Does nothing when progress is off or the job has not ended.
   */
  public void finish() {
    ScheduledExecutorService stopping;
    synchronized (lock) {
      JobMonitor.Outcome outcome = monitor == null ? null : monitor.outcome().getNow(null);
      if (finished || outcome == null) {
        return;
      }
      finished = true;
      settings
          .out()
          .println(
              ProgressLine.ended(jobName, outcome, reads.total(), millisSince(System.nanoTime())));
      settings.out().flush();
      stopping = timer;
    }
    stopping.shutdownNow();
  }

  private long millisSince(long nowNanos) {
    return TimeUnit.NANOSECONDS.toMillis(nowNanos - preparedAtNanos);
  }
}
