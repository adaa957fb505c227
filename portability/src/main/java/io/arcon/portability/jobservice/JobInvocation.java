package io.arcon.portability.jobservice;

import io.arcon.portability.execution.PortableJob;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobMessage.MessageImportance;
import org.apache.beam.model.jobmanagement.v1.JobApi.JobState;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A job the service started: what was submitted, the running {@link PortableJob}, its events. */
final class JobInvocation {

  private static final Logger LOG = LoggerFactory.getLogger(JobInvocation.class);

  private final String id;
  private final String name;
  private final RunnerApi.Pipeline pipeline;
  private final Struct options;
  private final JobEvents events;
  private volatile PortableJob job;

  /**
   * @param pipeline the pipeline as it runs, with the environments' dependencies resolved
   */
  JobInvocation(String id, String name, RunnerApi.Pipeline pipeline, Struct options) {
    this.id = id;
    this.name = name;
    this.pipeline = pipeline;
    this.options = options;
    // STOPPED, as Beam's job services report a job that has not started yet.
    this.events = new JobEvents(id, JobState.Enum.STOPPED);
    events.publishState(JobState.Enum.STARTING);
  }

  String id() {
    return id;
  }

  RunnerApi.Pipeline pipeline() {
    return pipeline;
  }

  JobEvents events() {
    return events;
  }

  JobState.Enum state() {
    return events.lastState().getState();
  }

  JobApi.JobInfo info() {
    return JobApi.JobInfo.newBuilder()
        .setJobId(id)
        .setJobName(name)
        .setPipelineOptions(options)
        .setState(state())
        .build();
  }

  /**
   * Follows the started job: RUNNING now, then its terminal state; for a failure, first an error
   * message with the failure's cause chain. {@code onEnd} runs once the job has ended, before its
   * terminal state is published.
   */
  void started(PortableJob started, Runnable onEnd) {
    this.job = started;
    for (String notice : started.notices()) {
      events.publishMessage(MessageImportance.JOB_MESSAGE_WARNING, notice);
    }
    events.publishState(JobState.Enum.RUNNING);
    started
        .termination()
        .whenComplete((finalState, error) -> end(started, finalState, error, onEnd));
  }

  /**
   * Publishes the end of the job; {@code onEnd} (the cleanup) runs before the terminal state, so a
   * client that sees the job ended sees it cleaned up.
   */
  private void end(
      PortableJob ended, PipelineResult.State finalState, Throwable error, Runnable onEnd) {
    Throwable failure = error;
    if (failure instanceof CompletionException && failure.getCause() != null) {
      failure = failure.getCause();
    }
    JobState.Enum state = failure != null ? JobState.Enum.FAILED : toJobState(finalState);
    if (!JobEvents.isTerminal(state)) {
      // The termination future completed, so the job is over whatever it says: report the
      // runner's mistake rather than leave clients waiting for an end.
      failure =
          new IllegalStateException(
              "the runner reported the end of the job with non-final state " + finalState);
      state = JobState.Enum.FAILED;
    }
    if (state == JobState.Enum.FAILED) {
      if (failure == null) {
        failure = ended.failure();
      }
      String text =
          failure != null
              ? "Job " + id + " failed: " + FailureText.of(failure)
              : "Job " + id + " failed; the runner gave no cause (see the job server's log)";
      LOG.warn("Job {} failed", id, failure);
      events.publishMessage(MessageImportance.JOB_MESSAGE_ERROR, text);
    } else {
      LOG.info("Job {} ended: {}", id, state);
    }
    try {
      onEnd.run();
    } catch (RuntimeException e) {
      LOG.warn("Cleaning up after job {} failed", id, e);
    } finally {
      events.publishState(state);
    }
  }

  /** Asks the job to stop; the state goes CANCELLING, then CANCELLED once it stopped. */
  void cancel() {
    PortableJob running = job;
    if (running == null || events.ended()) {
      return;
    }
    events.publishState(JobState.Enum.CANCELLING);
    running.cancel();
  }

  List<MetricsApi.MonitoringInfo> monitoringInfos() {
    PortableJob running = job;
    return running == null ? List.of() : running.monitoringInfos();
  }

  static JobState.Enum toJobState(PipelineResult.State state) {
    if (state == null) {
      return JobState.Enum.UNSPECIFIED;
    }
    return switch (state) {
      case STOPPED -> JobState.Enum.STOPPED;
      case RUNNING -> JobState.Enum.RUNNING;
      case DONE -> JobState.Enum.DONE;
      case FAILED -> JobState.Enum.FAILED;
      case CANCELLED -> JobState.Enum.CANCELLED;
      case UPDATED -> JobState.Enum.UPDATED;
      case UNKNOWN, UNRECOGNIZED -> JobState.Enum.UNSPECIFIED;
    };
  }
}
