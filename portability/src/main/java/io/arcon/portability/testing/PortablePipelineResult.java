package io.arcon.portability.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.sdk.PipelineResult;
import org.joda.time.Duration;

/**
 * A submitted portable job seen as a {@link PipelineResult}: {@link #waitUntilFinish} returns the
 * final state, or throws {@link org.apache.beam.sdk.Pipeline.PipelineExecutionException} with the
 * job's error when it ended FAILED.
 */
public abstract class PortablePipelineResult implements PipelineResult {
  private final String jobId;

  protected PortablePipelineResult(String jobId) {
    this.jobId = jobId;
  }

  /** The job server's id of the job. */
  public String jobId() {
    return jobId;
  }

  /** Completes with DONE, FAILED or CANCELLED when the job has ended. */
  protected abstract CompletableFuture<State> termination();

  /** What the job server said about the failure of a FAILED job; empty if nothing. */
  protected abstract String errorText();

  @Override
  public State getState() {
    CompletableFuture<State> termination = termination();
    return termination.isDone() ? termination.join() : State.RUNNING;
  }

  @Override
  public State waitUntilFinish() {
    return waitUntilFinish(null);
  }

  /**
   * @param duration how long to wait; null or not positive waits until the job ends
   * @return the final state, or RUNNING if the job has not ended in time
   */
  @Override
  public State waitUntilFinish(Duration duration) {
    State state;
    try {
      state =
          duration == null || duration.getMillis() <= 0
              ? termination().get()
              : termination().get(duration.getMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return State.RUNNING;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for job " + jobId, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Lost track of job " + jobId + ": " + e.getCause().getMessage(), e.getCause());
    }
    if (state == State.FAILED) {
      throw JobFailures.failed(jobId, errorText());
    }
    return state;
  }
}
