package io.arcon.runner;

import io.arcon.runner.progress.ReadProgress;
import io.arcon.runner.state.TemporaryStateRoot;
import io.arcon.runner.webui.ObservedJob;
import io.arcon.runtime.job.JobMonitor;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.util.UserCodeException;
import org.joda.time.Duration;

/** The handle of a pipeline running on ArconRunner. */
public class ArconPipelineResult implements PipelineResult {
  /**
   * How long {@link #cancel} waits for the job's nodes to stop (an attempt's shutdown waits 30).
   */
  static final long CANCEL_WAIT_SECONDS = 60;

  private final ObservedJob job;
  private final ReadProgress reads;
  private final JobMonitor monitor;
  private final MetricsContainerStepMap metrics;
  private final TemporaryStateRoot temporaryStateRoot;

  /** True once the job restarted, or from the start when it resumed from a checkpoint. */
  private final BooleanSupplier restartedOrResumed;

  /**
   * The job's outcome once its end-of-job cleanup ({@code onEnd}, the temporary state directory) is
   * done, so {@link #waitUntilFinish} returns only after it.
   */
  private final CompletableFuture<JobMonitor.Outcome> ended;

  /**
   * @param temporaryStateRoot the run's temporary state directory, deleted when the job ends
   *     however it ended; null when the user chose {@code --stateDir}, which is never deleted
   * @param resumed the job resumed from a checkpoint ({@code --restoreFrom})
   * @param onEnd runs when the job has ended, however it ended
   */
  ArconPipelineResult(
      ObservedJob job,
      ReadProgress reads,
      TemporaryStateRoot temporaryStateRoot,
      boolean resumed,
      Runnable onEnd) {
    this.job = job;
    this.restartedOrResumed = () -> resumed || job.stats().attempts() > 1;
    this.reads = reads;
    this.monitor = job.monitor();
    this.metrics = job.metrics();
    this.temporaryStateRoot = temporaryStateRoot;
    this.ended =
        monitor
            .outcome()
            .whenComplete(
                (outcome, error) -> {
                  try {
                    onEnd.run();
                  } finally {
                    if (temporaryStateRoot != null) {
                      // Checkpoints, which a resume needs, live elsewhere (--checkpointDir).
                      temporaryStateRoot.delete();
                    }
                  }
                });
  }

  /** What the job's reads have read so far (elements, bytes, estimated size). */
  public ReadProgress readProgress() {
    return reads;
  }

  /** The job's graph, live figures and metrics, as the web UI shows them. */
  public ObservedJob observedJob() {
    return job;
  }

  /**
   * Completes with the final state once the job ended and its cleanup is done; never exceptionally.
   */
  public CompletableFuture<State> termination() {
    return ended.handle((outcome, error) -> getState());
  }

  /** What made the job fail (the user's exception unwrapped), or null. */
  public Throwable failure() {
    Throwable t = monitor.failure();
    return t == null ? null : userCause(t);
  }

  @Override
  public State getState() {
    if (!monitor.outcome().isDone()) {
      return State.RUNNING;
    }
    return switch (monitor.outcome().join()) {
      case DONE -> State.DONE;
      case FAILED -> State.FAILED;
      case CANCELLED -> State.CANCELLED;
    };
  }

  @Override
  public State cancel() throws IOException {
    monitor.cancel();
    // The job reports CANCELLED once its nodes are down; like Flink's cancel, return after that.
    try {
      monitor.outcome().get(CANCEL_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException(
          "The job did not stop within "
              + CANCEL_WAIT_SECONDS
              + " s of its cancel; it is still being cancelled (getState() says when it ends)",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Job monitor failed", e.getCause());
    }
    return getState();
  }

  @Override
  public State waitUntilFinish(Duration duration) {
    try {
      if (duration == null || duration.getMillis() <= 0) {
        ended.get();
      } else {
        ended.get(duration.getMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (TimeoutException e) {
      return getState();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return getState();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Job monitor failed", e.getCause());
    }
    monitor.awaitShutdown(5_000);
    State state = getState();
    if (state == State.FAILED) {
      throw new Pipeline.PipelineExecutionException(userCause(monitor.failure()));
    }
    return state;
  }

  @Override
  public State waitUntilFinish() {
    return waitUntilFinish(Duration.ZERO);
  }

  /** The user's exception behind runners-core's wrapping. */
  public static Throwable userCause(Throwable t) {
    Throwable current = t;
    while (current instanceof UserCodeException && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }

  /**
   * Beam's metrics of the job. Attempted values count all work done, including work a restart did
   * again. Committed values are the final ones once the job is DONE, in one attempt from its start;
   * a job that restarted or resumed from a checkpoint has none (getCommitted() throws
   * UnsupportedOperationException, as on Flink), since its counts hold work done twice, or miss
   * work done before the resume.
   */
  @Override
  public MetricResults metrics() {
    if (restartedOrResumed.getAsBoolean()) {
      return MetricsContainerStepMap.asAttemptedOnlyMetricResults(metrics);
    }
    MetricsContainerStepMap committed =
        getState() == State.DONE ? metrics : new MetricsContainerStepMap();
    return MetricsContainerStepMap.asMetricResults(metrics, committed);
  }
}
