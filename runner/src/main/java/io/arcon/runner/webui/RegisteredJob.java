package io.arcon.runner.webui;

import java.util.concurrent.ExecutorService;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.metrics.MetricQueryResults;

/** A job shown by a server: its address, its sampled figures and its TSS control plane view. */
final class RegisteredJob {
  private final String id;
  private final ObservedJob job;
  private final LiveFigures figures;
  private final TssView tss;

  /**
   * @param tssQueries where the control plane is queried (a slow one must not hold a request
   *     thread)
   */
  RegisteredJob(String id, ObservedJob job, ExecutorService tssQueries) {
    this.id = id;
    this.job = job;
    this.figures = new LiveFigures(job);
    this.tss = job.tss() == null ? null : new TssView(job.tss(), tssQueries);
  }

  /** The job's part of the UI's paths: {@code /jobs/<id>}, {@code /api/jobs/<id>}. */
  String id() {
    return id;
  }

  ObservedJob job() {
    return job;
  }

  LiveFigures figures() {
    return figures;
  }

  /** The job's TSS control plane, null when the job does not use TSS. */
  TssView tss() {
    return tss;
  }

  /** The job's Beam metrics exactly as {@code PipelineResult.metrics()} reports them. */
  MetricQueryResults beamMetrics() {
    MetricsContainerStepMap metrics = job.metrics();
    // Operators add their step's container under this lock (OperatorMetrics) while we iterate.
    synchronized (metrics) {
      return MetricsContainerStepMap.asAttemptedOnlyMetricResults(metrics).allMetrics();
    }
  }

  /** The server no longer shows the job. */
  void forget() {
    if (tss != null) {
      tss.close();
    }
  }
}
