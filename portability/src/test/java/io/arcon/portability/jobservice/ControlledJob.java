package io.arcon.portability.jobservice;

import io.arcon.portability.execution.PortableJob;
import io.arcon.portability.execution.PortableJobSpec;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.sdk.PipelineResult;

/**
 * A job whose course the test decides: it runs until the test finishes or fails it, or a Cancel
 * stops it. The Job Service's own behaviour (states, messages, cleanup) is then tested without
 * depending on how long a real pipeline takes; the end-to-end tests run real pipelines.
 */
final class ControlledJob implements PortableJob {

  final PortableJobSpec spec;
  final List<MetricsApi.MonitoringInfo> metrics = new CopyOnWriteArrayList<>();
  private final CompletableFuture<PipelineResult.State> termination = new CompletableFuture<>();
  private volatile Throwable failure;

  ControlledJob(PortableJobSpec spec) {
    this.spec = spec;
  }

  void finish() {
    termination.complete(PipelineResult.State.DONE);
  }

  void fail(Throwable cause) {
    failure = cause;
    termination.complete(PipelineResult.State.FAILED);
  }

  @Override
  public PipelineResult.State state() {
    return termination.isDone() ? termination.join() : PipelineResult.State.RUNNING;
  }

  @Override
  public CompletableFuture<PipelineResult.State> termination() {
    return termination;
  }

  @Override
  public Throwable failure() {
    return failure;
  }

  @Override
  public void cancel() {
    termination.complete(PipelineResult.State.CANCELLED);
  }

  @Override
  public List<MetricsApi.MonitoringInfo> monitoringInfos() {
    return List.copyOf(metrics);
  }
}
