package io.arcon.runtime.job;

import io.arcon.runtime.checkpoint.IncompatibleCheckpointException;
import io.arcon.runtime.epoch.EpochCoordinator;
import io.arcon.runtime.epoch.JobRestore;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.observe.JobStats;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job with Flink's fixed-delay restart strategy: when an attempt fails and retries remain,
 * the attempt's actors are torn down and, after the retry delay, a new attempt starts from the
 * newest completed epoch (from the beginning when there is none). The returned monitor stands for
 * the whole job: it fails with the last attempt's failure once the retries are used up, and
 * cancelling it cancels the running attempt and reports CANCELLED once that attempt's nodes are
 * down, so that nothing of the job runs after a caller saw it cancelled.
 */
public final class JobAttempts {
  private static final Logger LOG = LoggerFactory.getLogger(JobAttempts.class);

  /** Starts one attempt's epoch coordinator, or returns null when the job takes no epochs. */
  @FunctionalInterface
  public interface Epochs {
    EpochCoordinator forAttempt(int attempt);
  }

  /** The epoch an attempt resumes from. */
  @FunctionalInterface
  public interface Restores {
    /**
     * The newest completed epoch to resume attempt {@code attempt} from, or null to start afresh.
     */
    JobRestore forAttempt(int attempt);
  }

  private final String jobName;
  private final JobGraph graph;
  private final RuntimeConfig config;
  private final Epochs epochs;
  private final Restores restores;
  private final int retries;
  private final long retryDelayMillis;
  private final JobStats stats;
  private final JobMonitor job = new JobMonitor(1);
  private final CompletableFuture<Void> lastShutdown = new CompletableFuture<>();
  private final ScheduledExecutorService delays =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "arcon-restarts");
            t.setDaemon(true);
            return t;
          });
  private volatile JobMonitor current;
  private volatile boolean cancelRequested;

  private JobAttempts(
      String jobName,
      JobGraph graph,
      RuntimeConfig config,
      Epochs epochs,
      Restores restores,
      int retries,
      long retryDelayMillis,
      JobStats stats) {
    this.jobName = jobName;
    this.stats = stats;
    this.graph = graph;
    this.config = config;
    this.epochs = epochs;
    this.restores = restores;
    this.retries = retries;
    this.retryDelayMillis = retryDelayMillis;
  }

  /**
   * Starts attempt 0 and returns the job's monitor.
   *
   * @param config attempt 0's configuration; later attempts keep their state under {@code
   *     stateRoot/attempt-N}
   * @param stats the job's figures, continued by every attempt
   */
  public static JobMonitor start(
      String jobName,
      JobGraph graph,
      RuntimeConfig config,
      Epochs epochs,
      Restores restores,
      int retries,
      long retryDelayMillis,
      JobStats stats) {
    JobAttempts attempts =
        new JobAttempts(jobName, graph, config, epochs, restores, retries, retryDelayMillis, stats);
    attempts.job.setShutdown(attempts.lastShutdown);
    attempts.job.onTerminate(attempts::jobEnded);
    attempts.job.onCancelRequest(attempts::cancelRequested);
    attempts.startAttempt(0, config.restore() != null ? config.restore() : restores.forAttempt(0));
    return attempts.job;
  }

  private void startAttempt(int attempt, JobRestore restore) {
    Path stateRoot =
        attempt == 0 ? config.stateRoot() : config.stateRoot().resolve("attempt-" + attempt);
    RuntimeConfig attemptConfig = config.resumingFrom(restore, stateRoot);
    JobMonitor monitor;
    try {
      stats.attemptStarted(attempt);
      monitor = JobExecutor.start(jobName, graph, attemptConfig, epochs.forAttempt(attempt), stats);
    } catch (RuntimeException | Error e) {
      if (attempt == 0) {
        delays.shutdown();
        throw e;
      }
      job.nodeFailed(e);
      return;
    }
    current = monitor;
    if (job.isTerminated() || cancelRequested) {
      monitor.cancel(); // cancelled while the attempt was starting
    }
    monitor.outcome().whenComplete((outcome, error) -> onAttemptEnded(attempt, monitor, outcome));
  }

  /**
   * Handles an attempt's end without ever letting a throwable out: it would end up in the
   * CompletableFuture that {@code whenComplete} returns, which nobody reads, while the attempt's
   * runtime goes down anyway ({@link JobExecutor}'s end of job): no thread would be left to end the
   * job, and {@code waitUntilFinish()} would wait for ever (it did, with no thread but {@code main}
   * left, when the runner's jar was rewritten in place under a running job by {@code mvn install}
   * and this class's enum switch, first loaded at the attempt's end, failed to load). The job fails
   * with that throwable instead, once the attempt's runtime is down.
   */
  private void onAttemptEnded(int attempt, JobMonitor monitor, JobMonitor.Outcome outcome) {
    try {
      attemptEnded(attempt, monitor, outcome);
    } catch (Throwable t) {
      Throwable attemptFailure = monitor.failure();
      if (attemptFailure != null && attemptFailure != t) {
        t.addSuppressed(attemptFailure);
      }
      try {
        afterShutdown(monitor, () -> job.nodeFailed(t));
      } catch (Throwable again) {
        job.nodeFailed(t);
      }
      try {
        LOG.error(
            "The end of attempt {} of {} could not be handled; the job fails", attempt, jobName, t);
      } catch (Throwable ignored) {
        // The job's end is decided above; a failure that cannot even be logged must not undo it.
      }
    }
  }

  private void attemptEnded(int attempt, JobMonitor monitor, JobMonitor.Outcome outcome) {
    // Not a switch: a switch on an enum compiles to a synthetic class (JobAttempts$1) that is first
    // loaded here, at the end of the first attempt, when the classes on disk may no longer be the
    // ones the job started with.
    if (outcome == JobMonitor.Outcome.DONE) {
      afterShutdown(monitor, job::nodeFinished);
      return;
    }
    if (outcome == JobMonitor.Outcome.CANCELLED || cancelRequested) {
      afterShutdown(monitor, job::cancelled); // or failed while being cancelled
      return;
    }
    // A checkpoint this pipeline can never restore fails every retry the same way.
    if (job.isTerminated()
        || attempt >= retries
        || IncompatibleCheckpointException.isBehind(monitor.failure())) {
      afterShutdown(monitor, () -> job.nodeFailed(monitor.failure()));
      return;
    }
    LOG.warn(
        "Attempt {} of {} failed; restarting in {} ms ({} of {} restarts)",
        attempt,
        jobName,
        retryDelayMillis,
        attempt + 1,
        retries,
        monitor.failure());
    delays.schedule(
        () -> {
          // The failed attempt's nodes must be closed (their state engines released) first.
          monitor.awaitShutdown(30_000);
          if (job.isTerminated() || cancelRequested) {
            return;
          }
          try {
            startAttempt(attempt + 1, restores.forAttempt(attempt + 1));
          } catch (RuntimeException | Error e) {
            e.addSuppressed(monitor.failure());
            job.nodeFailed(e);
          }
        },
        retryDelayMillis,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Ends the job once the attempt's runtime is down (its epoch coordinator stopped, so no epoch is
   * committed after the job's end), off the node thread that reported the attempt's end.
   */
  private void afterShutdown(JobMonitor attempt, Runnable endJob) {
    try {
      delays.execute(
          () -> {
            attempt.awaitShutdown(30_000);
            endJob.run();
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      endJob.run(); // the job was cancelled meanwhile
    }
  }

  /**
   * A caller cancels the job: cancel the running attempt, whose end then reports the job CANCELLED
   * after its shutdown ({@link #attemptEnded}); between attempts (a failed one waiting for its
   * retry), report it once the failed one is down.
   */
  private void cancelRequested() {
    cancelRequested = true;
    JobMonitor running = current;
    if (running == null) {
      return; // attempt 0 is starting: startAttempt cancels it
    }
    if (running.isTerminated()) {
      afterShutdown(running, job::cancelled);
    } else {
      running.cancel();
    }
  }

  /** The job ended (or was cancelled): cancel the running attempt, then wait for its shutdown. */
  private void jobEnded() {
    JobMonitor running = current;
    if (running != null) {
      running.cancel();
    }
    delays.shutdown();
    Thread waiter =
        new Thread(
            () -> {
              if (running != null) {
                running.awaitShutdown(30_000);
              }
              lastShutdown.complete(null);
            },
            "arcon-job-end");
    waiter.setDaemon(true);
    waiter.start();
  }
}
