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
      // The cells see the message's counts now; and a thread outlives jobs, so it must not keep a
      // finished job's step containers reachable.
      flushCounters();
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
   * The counters handed out since the outermost {@link #enter}, by container and name identity,
   * each counting into a plain field that {@link #exit} adds to the container's cell.
   *
   * <p>Why: Beam's {@code DelegatingCounter} asks the thread's container for its cell on every
   * {@code inc} with the same {@code MetricName} object, and the container's lookup hashes the
   * name's strings each time. The cell itself is shared by the step's parallel instances, so an
   * {@code inc} there is two atomic writes to a cache line another node thread writes too: a sink
   * counting three metrics per record, with the source's elements-read counter, spent a third of a
   * pass-through pipeline's time in them. Counted here, an {@code inc} is an identity scan of a few
   * entries and an addition; the cells see the sums once per message, when the node exits.
   */
  private final PendingCounter[] pending = new PendingCounter[16];

  private int pendingCount;

  /**
   * A counter of one container and one name object, summed here until the next flush. Once flushed
   * and forgotten it is retired: code that kept it (rather than asking the thread's container
   * again, as Beam's {@code DelegatingCounter} does) then counts straight into the cell, so no
   * count is lost.
   */
  private static final class PendingCounter implements Counter {
    final MetricsContainer target;
    final MetricName name;
    final Counter cell;
    long sum;
    boolean retired;

    PendingCounter(MetricsContainer target, MetricName name, Counter cell) {
      this.target = target;
      this.name = name;
      this.cell = cell;
    }

    @Override
    public void inc() {
      inc(1);
    }

    @Override
    public void inc(long n) {
      if (retired) {
        cell.inc(n);
      } else {
        sum += n;
      }
    }

    @Override
    public void dec() {
      inc(-1);
    }

    @Override
    public void dec(long n) {
      inc(-n);
    }

    @Override
    public MetricName getName() {
      return name;
    }

    /** Adds the sum to the cell; from then on every count goes to the cell directly. */
    void retire() {
      retired = true;
      if (sum != 0) {
        long n = sum;
        sum = 0;
        cell.inc(n);
      }
    }
  }

  /** Adds every pending count to its cell and forgets the counters (and so their containers). */
  private void flushCounters() {
    PendingCounter[] counters = pending;
    for (int i = 0; i < pendingCount; i++) {
      counters[i].retire();
      counters[i] = null;
    }
    pendingCount = 0;
  }

  @Override
  public Counter getCounter(MetricName metricName) {
    MetricsContainer target = target();
    if (depth == 0) {
      return target.getCounter(metricName); // not installed: no exit would flush
    }
    PendingCounter[] counters = pending;
    int count = pendingCount;
    for (int i = count - 1; i >= 0; i--) {
      PendingCounter c = counters[i];
      if (c.name == metricName && c.target == target) {
        return c;
      }
    }
    // A counter made anew per element (Metrics.counter(...) inside processElement) brings an equal
    // name object each time.
    for (int i = count - 1; i >= 0; i--) {
      PendingCounter c = counters[i];
      if (c.target == target && c.name.equals(metricName)) {
        return c;
      }
    }
    PendingCounter counter = new PendingCounter(target, metricName, target.getCounter(metricName));
    if (count < counters.length) {
      counters[pendingCount++] = counter;
    } else {
      // Full: the oldest entry makes room (its count goes to its cell now).
      counters[0].retire();
      System.arraycopy(counters, 1, counters, 0, count - 1);
      counters[count - 1] = counter;
    }
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
