package io.arcon.runner.translation;

import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import java.util.List;

/**
 * The translated job and what executing it needs besides the graph.
 *
 * @param graph the fused operator chains and their edges
 * @param manualClock the job's processing-time clock when a TestStream drives it, else null
 * @param activity in-flight tracking, present together with the manual clock
 * @param statefulSteps the steps that keep keyed state, in topological order
 * @param usesSynchronizedTime whether a GroupByKey groups a PCollection with a
 *     synchronized-processing-time trigger, so nodes need synchronized time from upstream progress
 */
public record Translation(
    JobGraph graph,
    ManualClock manualClock,
    JobActivity activity,
    List<StatefulStep> statefulSteps,
    boolean usesSynchronizedTime) {}
