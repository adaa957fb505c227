package io.arcon.runner.operators;

import io.arcon.runner.metrics.ElementCount;
import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.StateUsage;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;

/**
 * What every keyed grouping (GroupByKey and the combines run as one) shares: the keyed state and
 * timers of an instance in its backend, the current key set by the keyed edge, the watermark and
 * the clocks handed to the timers, and the delivery of due timers grouped by key. Subclasses decide
 * what an element and a key's due timers do to a window's panes.
 */
public abstract class KeyedGroupingOperator<K, InT, OutT> implements Operator {

  /** How often a synchronized-time timer held back by upstream work is looked at again. */
  private static final long SYNCHRONIZED_RECHECK_MILLIS = 2;

  protected final GroupByKeyOperator.Spec<K, InT, OutT> spec;
  protected OperatorContext context;
  protected KeyedStateContext<K> keyed;

  /** {@code context}'s processing-time clock, made once rather than per element. */
  private LongSupplier processingClock;

  /** {@code context}'s synchronized processing-time clock, likewise. */
  private LongSupplier synchronizedClock;

  private byte[] currentKeyBytes;
  private long inputWatermark = Long.MIN_VALUE;
  private ElementCount[] outputCount;

  /** The due timers of a firing round, by key; reused. */
  private final GroupedByKey<KeyedTimer> dueTimers = new GroupedByKey<>();

  /** Whether {@link #fireDue} runs with {@link #dueTimers}. */
  private boolean firing;

  KeyedGroupingOperator(GroupByKeyOperator.Spec<K, InT, OutT> spec) {
    this.spec = spec;
  }

  @Override
  public final void open(OperatorContext ctx) {
    this.context = ctx;
    this.processingClock = ctx::currentProcessingTime;
    this.synchronizedClock = ctx::currentSynchronizedProcessingTime;
    keyed =
        KeyedStateContext.open(
            spec.stateEngine(),
            spec.stepName(),
            ctx,
            spec.keyCoder(),
            spec.windowingStrategy().getWindowFn().windowCoder());
    inputWatermark = keyed.restoredInputWatermark();
    outputCount = spec.metrics().outputElementCounts(1);
    openGrouping();
    if (inputWatermark != Long.MIN_VALUE) {
      // Restored: as it was when the snapshot was taken.
      updateOutputWatermark();
    }
  }

  /** Builds what the subclass needs once {@link #keyed} is open. */
  protected abstract void openGrouping();

  /** Emits one pane's output. */
  protected final void emit(WindowedValue<KV<K, OutT>> value) {
    if (outputCount[0] != null) {
      outputCount[0].increment();
    }
    context.output().emit(0, value);
  }

  @SuppressWarnings("unchecked")
  protected final WindowingStrategy<?, BoundedWindow> windowingStrategy() {
    return (WindowingStrategy<?, BoundedWindow>) spec.windowingStrategy();
  }

  /** The input crossed a keyed edge: its state and timers are under these bytes. */
  @Override
  public final void setCurrentKey(byte[] keyBytes) {
    this.currentKeyBytes = keyBytes;
  }

  @Override
  @SuppressWarnings("unchecked")
  public final void processElement(int port, Object element) {
    WindowedValue<KV<K, InT>> value = (WindowedValue<KV<K, InT>>) element;
    K key = value.getValue().getKey();
    makeCurrent(currentKeyBytes, key, value.getTimestamp());
    processKeyedElement(key, value);
  }

  /** Makes {@code key} (encoded as {@code keyBytes}) current for an element at {@code time}. */
  protected final void makeCurrent(byte[] keyBytes, K key, Instant time) {
    keyed.setCurrentKey(keyBytes, key, time);
    keyed.followProcessingClock(processingClock);
    keyed.followSynchronizedClock(synchronizedClock);
  }

  /** One element, its key current in {@link #keyed} and the clocks set. */
  protected abstract void processKeyedElement(K key, WindowedValue<KV<K, InT>> value);

  /**
   * Processes the elements the subclass held back to process by key: called before the watermark or
   * processing time moves, at the end of each bundle and before a snapshot, so that the held
   * elements see the time they came at and timers, snapshots and the next bundle find them done.
   */
  protected void processHeldElements() {}

  /** Every due timer of one key (current in {@link #keyed}), in firing order. */
  protected abstract void onTimers(K key, List<TimerData> timers);

  @Override
  public final void advanceWatermark(long watermark) {
    processHeldElements();
    if (watermark <= inputWatermark) {
      return;
    }
    inputWatermark = watermark;
    keyed.setWatermarks(
        watermark,
        new Instant(context.currentProcessingTime()),
        new Instant(context.currentSynchronizedProcessingTime()));
    fireDue(() -> keyed.pollEventTimer(watermark));
    // The timers above fired under the previous output watermark.
    updateOutputWatermark();
  }

  /**
   * Sets the output watermark runners-core's reduce logic reads to the input watermark or the
   * holds, as Flink's DoFnOperator keeps it: panes of windows that end before it are LATE, and late
   * data gets no hold below it (PaneInfoTracker, WatermarkHold). Unknown (null) until the first
   * advance or a restore.
   */
  private void updateOutputWatermark() {
    keyed.setOutputWatermark(Math.min(inputWatermark, outputWatermarkHold()));
  }

  /**
   * {@link #updateOutputWatermark} once the input watermark is known: after panes that did not come
   * from a watermark advance (processing time, element counts), whose released holds let the output
   * watermark move up, as DirectRunner recomputes it after every bundle. Holds are never added
   * below the output watermark, so it only moves up.
   */
  private void updateOutputWatermarkIfKnown() {
    if (inputWatermark != Long.MIN_VALUE) {
      updateOutputWatermark();
    }
  }

  @Override
  public final void advanceProcessingTime(long nowMillis) {
    processHeldElements();
    long synchronizedMillis = context.currentSynchronizedProcessingTime();
    keyed.setWatermarks(inputWatermark, new Instant(nowMillis), new Instant(synchronizedMillis));
    // Triggers fire once (synchronized) processing time is strictly after their delay
    // (isAfter), as in runners-core's InMemoryTimerInternals; a timer delivered at exactly its
    // time would be consumed without firing the pane, so only timers before now are due.
    fireDue(() -> keyed.pollProcessingTimer(nowMillis - 1, synchronizedMillis - 1));
    // A pane fired by processing time released its holds.
    updateOutputWatermarkIfKnown();
  }

  /**
   * Delivers every due timer, all timers of one key together, as runners-core's reduce logic
   * expects: the end-of-window and garbage-collection timers of a window that fall due together
   * must be seen together, or the window fires an extra pane. Timers set while firing that are
   * already due are delivered in a further round.
   */
  private void fireDue(Supplier<KeyedTimer> poll) {
    // Firing emits downstream and never comes back here, but a fresh grouping keeps it safe if a
    // future path does.
    GroupedByKey<KeyedTimer> byKey = firing ? new GroupedByKey<>() : dueTimers;
    firing = true;
    try {
      while (true) {
        KeyedTimer timer;
        while ((timer = poll.get()) != null) {
          byKey.add(timer.encodedKey(), timer);
        }
        if (byKey.isEmpty()) {
          return;
        }
        writeBackHeldState();
        for (int k = 0; k < byKey.keys(); k++) {
          K key = keyed.setCurrentKeyForTimer(byKey.lastOf(k));
          onTimers(key, byKey.itemsOf(k, KeyedTimer::timer));
        }
        byKey.clear();
      }
    } finally {
      byKey.clear();
      if (byKey == dueTimers) {
        firing = false;
      }
    }
  }

  @Override
  public final long nextProcessingTimeWakeup() {
    long processing = keyed.nextTimer(TimeDomain.PROCESSING_TIME);
    long next = processing == Long.MAX_VALUE ? processing : processing + 1;
    long synchronizedTimer = keyed.nextTimer(TimeDomain.SYNCHRONIZED_PROCESSING_TIME);
    if (synchronizedTimer != Long.MAX_VALUE) {
      long due = synchronizedTimer + 1;
      long now = context.currentProcessingTime();
      if (context.currentSynchronizedProcessingTime() >= due) {
        next = Math.min(next, now);
      } else if (now >= due) {
        // Due by the clock but held back by upstream work: look again shortly.
        next = Math.min(next, now + SYNCHRONIZED_RECHECK_MILLIS);
      } else {
        next = Math.min(next, due);
      }
    }
    return next;
  }

  @Override
  public long outputWatermarkHold() {
    return keyed.hold(false);
  }

  /**
   * Writes what the subclass holds of the keys' state outside their cells (decoded between elements
   * of a bundle) to the cells: called before timers fire, at the end of each bundle and before a
   * snapshot, so that timers, snapshots and readers between bundles find every cell written.
   */
  protected void writeBackHeldState() {}

  @Override
  public void finishBundle() {
    processHeldElements();
    writeBackHeldState();
    // Panes fired by elements (counts) released their holds.
    updateOutputWatermarkIfKnown();
    OperatorMetrics.flush(outputCount);
  }

  /**
   * Everything the operator keeps between bundles is in its backend: the panes' state, holds and
   * timers are Beam state; only the input watermark is a field, and it goes with the snapshot.
   */
  @Override
  public final void snapshotState(OperatorSnapshot snapshot) {
    processHeldElements();
    writeBackHeldState();
    keyed.snapshot(snapshot, inputWatermark);
  }

  @Override
  public final StateUsage stateUsage() {
    return keyed == null ? null : keyed.stateUsage();
  }

  @Override
  public final void close() {
    if (keyed != null) {
      keyed.close();
    }
  }
}
