package io.arcon.runner.webui;

import io.arcon.runner.tss.TssSettings;
import io.arcon.runtime.job.JobMonitor;
import io.arcon.runtime.observe.JobStats;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;

/**
 * What a running (or finished) job shows: its graph and live figures, its Beam metrics, its
 * outcome, and the TSS control plane it registered with.
 *
 * @param name {@code --jobName}
 * @param stats the job graph and its live figures
 * @param metrics the job's Beam metrics (user counters, distributions, gauges; element counts)
 * @param monitor the job's outcome, incomplete while it runs
 * @param tss where the job's TSS control plane is, null when the job does not use TSS
 */
public record ObservedJob(
    String name,
    JobStats stats,
    MetricsContainerStepMap metrics,
    JobMonitor monitor,
    TssSettings tss) {

  /** RUNNING, DONE, FAILED or CANCELLED. */
  public String state() {
    JobMonitor.Outcome outcome = monitor.outcome().getNow(null);
    return outcome == null ? "RUNNING" : outcome.name();
  }
}
