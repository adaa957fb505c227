package io.arcon.portability.execution;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.sdk.PipelineResult;

/** A portable pipeline running on the Arcon runtime, as the Job Service sees it. */
public interface PortableJob {

  /** RUNNING until the job ends; then DONE, FAILED or CANCELLED. */
  PipelineResult.State state();

  /** Completes with the final state (DONE, FAILED or CANCELLED) when the job ends. */
  CompletableFuture<PipelineResult.State> termination();

  /**
   * What ended the job when it FAILED (for a failure in an SDK harness, its message carries the
   * harness's error), else null.
   */
  Throwable failure();

  /** Stops the job; {@link #termination()} completes with CANCELLED once every node stopped. */
  void cancel();

  /** The job's Beam metrics so far (user and system), as the SDK harnesses reported them. */
  List<MetricsApi.MonitoringInfo> monitoringInfos();

  /** What the client should know about how the job was started (options the server overrode). */
  default List<String> notices() {
    return List.of();
  }
}
