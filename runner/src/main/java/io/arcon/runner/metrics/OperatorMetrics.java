package io.arcon.runner.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.metrics.MetricsContainer;

/**
 * The Beam metrics container of one step. All parallel instances of the step share it: its cells
 * are thread-safe, and sharing makes the job's totals a plain read.
 */
public final class OperatorMetrics {
  private final MetricsContainerImpl container;
  private final List<String> outputPCollections;

  /** A thread other than the last one's looks its switch up; see {@link #forInstance}. */
  private final StepContainerSwitch.OfCallingThread threadSwitch =
      new StepContainerSwitch.OfCallingThread();

  public OperatorMetrics(MetricsContainerStepMap stepMap, String stepName) {
    this(containerOf(stepMap, stepName), List.of());
  }

  private OperatorMetrics(MetricsContainerImpl container, List<String> outputPCollections) {
    this.container = container;
    this.outputPCollections = outputPCollections;
  }

  private static MetricsContainerImpl containerOf(
      MetricsContainerStepMap stepMap, String stepName) {
    synchronized (stepMap) {
      return stepMap.getContainer(stepName);
    }
  }

  /**
   * The same step, with the names of the PCollections its outputs (by index) produce; null for an
   * output that feeds no PCollection.
   */
  public OperatorMetrics withOutputs(List<String> outputPCollections) {
    return new OperatorMetrics(
        container, Collections.unmodifiableList(new ArrayList<>(outputPCollections)));
  }

  /**
   * The same step for one operator instance, with its own note of the calling thread's switch. The
   * step's instances run on different node threads; a note they shared would be rewritten by each
   * in turn, a cache line moving between the cores on every call (a merging GroupByKey spent 2% of
   * its time there).
   */
  public OperatorMetrics forInstance() {
    return new OperatorMetrics(container, outputPCollections);
  }

  /**
   * One element counter per output (by index) for an operator instance; an output without a known
   * PCollection counts into nothing.
   */
  public ElementCount[] outputElementCounts(int outputs) {
    ElementCount[] counts = new ElementCount[outputs];
    for (int i = 0; i < outputs; i++) {
      String pcollection = i < outputPCollections.size() ? outputPCollections.get(i) : null;
      counts[i] = pcollection == null ? null : new ElementCount(container, pcollection);
    }
    return counts;
  }

  /** Publishes the counts of an operator instance (at the end of each bundle). */
  public static void flush(ElementCount[] counts) {
    for (ElementCount c : counts) {
      if (c != null) {
        c.flush();
      }
    }
  }

  public MetricsContainerImpl container() {
    return container;
  }

  /** Work that may report metrics and returns a result. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws Exception;
  }

  /** Work that may report metrics. */
  @FunctionalInterface
  public interface Action {
    void run() throws Exception;
  }

  /**
   * Runs {@code work} with this step's container as the thread's current metrics container, and
   * gives the previous container back after. For user code that runs outside the step's {@link
   * DoFnRunner} (see {@link #scoped(DoFnRunner)}): DoFn setup and teardown, side-input bookkeeping,
   * bundle-finalization callbacks, combine functions, sources.
   */
  public <T> T scoped(Work<T> work) throws Exception {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      return work.run();
    } finally {
      sw.exit(previous);
    }
  }

  /** {@link #scoped(Work)} for work without a result. */
  public void scoped(Action work) throws Exception {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      work.run();
    } finally {
      sw.exit(previous);
    }
  }

  /**
   * {@code runner}, with every call (bundles, elements, timers, window expiration) running in this
   * step's metrics container. Wrap the outermost runner; build pushback runners over the result.
   */
  public <InT, OutT> DoFnRunner<InT, OutT> scoped(DoFnRunner<InT, OutT> runner) {
    return new MetricsScopedDoFnRunner<>(runner, container);
  }
}
