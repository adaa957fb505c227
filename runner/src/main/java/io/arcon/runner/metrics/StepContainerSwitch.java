package io.arcon.runner.metrics;

import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.sdk.metrics.BoundedTrie;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Histogram;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.MetricsContainer;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.apache.beam.sdk.util.HistogramData;

/**
 * The metrics container Beam sees on a thread while ArconRunner code runs on it: it forwards every
 * metric to the container of the step whose code runs now ({@link #enter}/{@link #exit}).
 *
 * <p>Why: user code finds its container through Beam's thread-local ({@link MetricsEnvironment}),
 * and setting that around every element of every step (a thread-local lookup to set it, another to
 * give the previous one back) was a tenth of a per-element stateful pipeline's time. The outermost
 * {@link #enter} on a thread installs the switch as Beam's container and the matching {@link #exit}
 * gives the previous container back; in between, entering a step swaps a field. A node installs it
 * once per message ({@link MetricsWorkScope}), so its elements pay only the field swaps.
 *
 * <p>All step scoping of this runner goes through the switch ({@link OperatorMetrics}, {@link
 * MetricsScopedDoFnRunner}). Metrics reported while no step is entered go to the container the
 * thread had before the switch was installed, or nowhere when it had none (as Beam drops them).
 */
final class StepContainerSwitch implements MetricsContainer {
  private static final ThreadLocal<StepContainerSwitch> OF_THREAD =
      ThreadLocal.withInitial(StepContainerSwitch::new);

  /** Where metrics go while no step is entered, when the thread had no container before. */
  private final MetricsContainer sink = new MetricsContainerImpl(null);

  private final Thread thread = Thread.currentThread();

  /** Nested {@link #enter} calls not exited yet; the switch is installed while this is above 0. */
  private int depth;

  /** Beam's container of the thread before the outermost {@link #enter}; restored by its exit. */
  private MetricsContainer before;

  /** The entered step's container, or null between steps. */
  private MetricsContainer current;

  private StepContainerSwitch() {}

  /** The calling thread's switch. */
  static StepContainerSwitch ofCurrentThread() {
    return OF_THREAD.get();
  }

  /**
   * Makes {@code step} (null: no step) the container metrics go to, installing the switch as the
   * thread's Beam container if this is the outermost entry. Returns what {@link #exit} restores.
   */
  MetricsContainer enter(MetricsContainer step) {
    if (depth++ == 0) {
      MetricsContainer previous = MetricsEnvironment.setCurrentContainer(this);
      // Never forward to itself, even if an exit was skipped (metrics would recurse).
      before = previous == this ? null : previous;
    }
    MetricsContainer outer = current;
    current = step;
    return outer;
  }

  /** Undoes the matching {@link #enter}. */
  void exit(MetricsContainer previous) {
    current = previous;
    if (--depth == 0) {
      MetricsEnvironment.setCurrentContainer(before);
      before = null;
      // A thread outlives jobs: do not keep a finished job's step containers reachable.
      forgetCounters();
    }
  }

  /**
   * The switch of the thread that called last, looked up again only when the caller runs on another
   * thread (a node's actor moves between dispatcher threads only between messages). Safe to share
   * between threads: a switch's thread is final, so a reader never takes another thread's switch.
   */
  static final class OfCallingThread {
    private StepContainerSwitch last;

    StepContainerSwitch get() {
      StepContainerSwitch sw = last;
      if (sw == null || sw.thread != Thread.currentThread()) {
        sw = ofCurrentThread();
        last = sw;
      }
      return sw;
    }
  }

  private MetricsContainer target() {
    if (current != null) {
      return current;
    }
    return before != null ? before : sink;
  }

  /**
   * The last two counters handed out, by container and name identity. Beam's {@code
   * DelegatingCounter} asks for its cell on every {@code inc} with the same {@code MetricName}
   * object (a source's elements-read counter does so per element), and the container's lookup
   * hashes the name's strings each time; a step's counter cells live as long as its container.
   */
  private KeptCounter kept0;

  private KeptCounter kept1;

  /** A counter cell handed out for one container and one name object. */
  private record KeptCounter(MetricsContainer target, MetricName name, Counter counter) {
    boolean isFor(MetricsContainer container, MetricName metricName) {
      return name == metricName && target == container;
    }
  }

  private void forgetCounters() {
    kept0 = null;
    kept1 = null;
  }

  @Override
  public Counter getCounter(MetricName metricName) {
    MetricsContainer target = target();
    KeptCounter last = kept0;
    if (last != null && last.isFor(target, metricName)) {
      return last.counter();
    }
    KeptCounter before = kept1;
    if (before != null && before.isFor(target, metricName)) {
      return before.counter();
    }
    Counter counter = target.getCounter(metricName);
    kept1 = last;
    kept0 = new KeptCounter(target, metricName, counter);
    return counter;
  }

  @Override
  public Counter getPerWorkerCounter(MetricName metricName) {
    return target().getPerWorkerCounter(metricName);
  }

  @Override
  public Distribution getDistribution(MetricName metricName) {
    return target().getDistribution(metricName);
  }

  @Override
  public Gauge getGauge(MetricName metricName) {
    return target().getGauge(metricName);
  }

  @Override
  public org.apache.beam.sdk.metrics.StringSet getStringSet(MetricName metricName) {
    return target().getStringSet(metricName);
  }

  @Override
  public BoundedTrie getBoundedTrie(MetricName metricName) {
    return target().getBoundedTrie(metricName);
  }

  @Override
  public Histogram getHistogram(MetricName metricName, HistogramData.BucketType bucketType) {
    return target().getHistogram(metricName, bucketType);
  }

  @Override
  public Iterable<org.apache.beam.model.pipeline.v1.MetricsApi.MonitoringInfo>
      getMonitoringInfos() {
    return target().getMonitoringInfos();
  }
}
