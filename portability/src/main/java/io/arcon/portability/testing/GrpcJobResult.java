package io.arcon.portability.testing;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobMessage.MessageImportance;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobState;
import org.apache.beam.model.jobmanagement.v1.JobServiceGrpc;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Channel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.StreamObserver;

/**
 * A job on a job server, followed through its message stream (state changes and the error messages
 * published before a FAILED state). If the stream breaks before the job ended, the state is polled
 * instead.
 */
final class GrpcJobResult extends PortablePipelineResult {
  private static final long POLL_MILLIS = 200;

  private final Channel channel;
  private final CompletableFuture<State> termination = new CompletableFuture<>();
  private final StringBuilder errors = new StringBuilder();
  private volatile JobState.Enum lastState = JobState.Enum.STARTING;

  private GrpcJobResult(String jobId, Channel channel) {
    super(jobId);
    this.channel = channel;
  }

  /** Starts following job {@code jobId} on the server behind {@code channel}. */
  static GrpcJobResult follow(String jobId, Channel channel) {
    GrpcJobResult result = new GrpcJobResult(jobId, channel);
    result.subscribe();
    return result;
  }

  private JobServiceGrpc.JobServiceBlockingStub jobs() {
    return JobServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(GrpcJobSubmitter.CALL_DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  private void subscribe() {
    JobServiceGrpc.newStub(channel)
        .getMessageStream(
            JobApi.JobMessagesRequest.newBuilder().setJobId(jobId()).build(),
            new StreamObserver<>() {
              @Override
              public void onNext(JobApi.JobMessagesResponse response) {
                if (response.hasMessageResponse()) {
                  onMessage(response.getMessageResponse());
                }
                if (response.hasStateResponse()) {
                  onState(response.getStateResponse().getState());
                }
              }

              @Override
              public void onError(Throwable t) {
                pollInBackground();
              }

              @Override
              public void onCompleted() {
                if (!termination.isDone()) {
                  pollInBackground();
                }
              }
            });
  }

  private void onMessage(JobApi.JobMessage message) {
    if (message.getImportance().getNumber() >= MessageImportance.JOB_MESSAGE_ERROR.getNumber()) {
      synchronized (errors) {
        if (errors.length() > 0) {
          errors.append('\n');
        }
        errors.append(message.getMessageText());
      }
    }
  }

  private void onState(JobState.Enum state) {
    lastState = state;
    State terminal = terminalState(state);
    if (terminal != null) {
      termination.complete(terminal);
    }
  }

  private void pollInBackground() {
    Thread poller =
        new Thread(
            () -> {
              try {
                while (!termination.isDone()) {
                  onState(
                      jobs()
                          .getState(
                              JobApi.GetJobStateRequest.newBuilder().setJobId(jobId()).build())
                          .getState());
                  Thread.sleep(POLL_MILLIS);
                }
              } catch (StatusRuntimeException e) {
                termination.completeExceptionally(
                    new IllegalStateException(
                        "The job server stopped answering about job "
                            + jobId()
                            + ": "
                            + e.getStatus(),
                        e));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "job-state-poller-" + jobId());
    poller.setDaemon(true);
    poller.start();
  }

  /** The runner's final state for a terminal job state, else null. */
  static State terminalState(JobState.Enum state) {
    return switch (state) {
      case DONE, DRAINED -> State.DONE;
      case FAILED -> State.FAILED;
      case CANCELLED -> State.CANCELLED;
      case UPDATED -> State.UPDATED;
      default -> null;
    };
  }

  @Override
  protected CompletableFuture<State> termination() {
    return termination;
  }

  @Override
  protected String errorText() {
    synchronized (errors) {
      return errors.toString();
    }
  }

  @Override
  public State getState() {
    State terminal = terminalState(lastState);
    if (terminal != null) {
      return terminal;
    }
    return lastState == JobState.Enum.STOPPED || lastState == JobState.Enum.STARTING
        ? State.STOPPED
        : State.RUNNING;
  }

  @Override
  public State cancel() throws IOException {
    try {
      JobState.Enum state =
          jobs().cancel(JobApi.CancelJobRequest.newBuilder().setJobId(jobId()).build()).getState();
      onState(state);
    } catch (StatusRuntimeException e) {
      throw new IOException("Cancelling job " + jobId() + " failed: " + e.getStatus(), e);
    }
    return getState();
  }

  @Override
  public MetricResults metrics() {
    JobApi.GetJobMetricsResponse response =
        jobs().getJobMetrics(JobApi.GetJobMetricsRequest.newBuilder().setJobId(jobId()).build());
    return MonitoringInfoMetrics.of(
        response.getMetrics().getAttemptedList(), response.getMetrics().getCommittedList());
  }
}
