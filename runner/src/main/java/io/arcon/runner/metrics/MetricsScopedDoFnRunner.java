package io.arcon.runner.metrics;

import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.sdk.metrics.MetricsContainer;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.WindowedValue;
import org.joda.time.Instant;

/**
 * A {@link DoFnRunner} whose every call runs with one step's metrics container as the thread's
 * current container (and gives the previous one back after), so whatever the user's DoFn and the
 * runners-core layers below report lands in the step. Wrap the outermost runner (the stateful or
 * late-data-dropping one): those layers report metrics of their own, e.g. dropped late elements.
 * Pushback runners (side inputs, splittable {@code ProcessFnRunner}) are built over this one.
 *
 * <p>Runs once per element and timer, so it enters the step on the thread's {@link
 * StepContainerSwitch} (a field swap) instead of setting Beam's thread-local container per call.
 */
final class MetricsScopedDoFnRunner<InT, OutT> implements DoFnRunner<InT, OutT> {
  private final DoFnRunner<InT, OutT> delegate;
  private final MetricsContainer container;
  private final StepContainerSwitch.OfCallingThread threadSwitch =
      new StepContainerSwitch.OfCallingThread();

  MetricsScopedDoFnRunner(DoFnRunner<InT, OutT> delegate, MetricsContainer container) {
    this.delegate = delegate;
    this.container = container;
  }

  @Override
  public void startBundle() {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      delegate.startBundle();
    } finally {
      sw.exit(previous);
    }
  }

  @Override
  public void processElement(WindowedValue<InT> elem) {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      delegate.processElement(elem);
    } finally {
      sw.exit(previous);
    }
  }

  @Override
  public <KeyT> void onTimer(
      String timerId,
      String timerFamilyId,
      KeyT key,
      BoundedWindow window,
      Instant timestamp,
      Instant outputTimestamp,
      TimeDomain timeDomain,
      CausedByDrain causedByDrain) {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      delegate.onTimer(
          timerId,
          timerFamilyId,
          key,
          window,
          timestamp,
          outputTimestamp,
          timeDomain,
          causedByDrain);
    } finally {
      sw.exit(previous);
    }
  }

  @Override
  public void finishBundle() {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      delegate.finishBundle();
    } finally {
      sw.exit(previous);
    }
  }

  @Override
  public <KeyT> void onWindowExpiration(BoundedWindow window, Instant timestamp, KeyT key) {
    StepContainerSwitch sw = threadSwitch.get();
    MetricsContainer previous = sw.enter(container);
    try {
      delegate.onWindowExpiration(window, timestamp, key);
    } finally {
      sw.exit(previous);
    }
  }

  @Override
  public DoFn<InT, OutT> getFn() {
    return delegate.getFn();
  }
}
