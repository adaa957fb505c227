package io.arcon.runner.operators;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.KeyedTimerInternals;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.beam.runners.core.LateDataDroppingDoFnRunner;
import org.apache.beam.runners.core.LateDataUtils;
import org.apache.beam.runners.core.ReduceFn;
import org.apache.beam.runners.core.ReduceFnRunner;
import org.apache.beam.runners.core.StateAccessor;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.state.State;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timers;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.transforms.windowing.Window.ClosingBehavior;
import org.apache.beam.sdk.transforms.windowing.Window.OnTimeBehavior;
import org.apache.beam.sdk.util.UserCodeException;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.apache.beam.sdk.values.WindowingStrategy.AccumulationMode;
import org.joda.time.Instant;

/**
 * GroupByKey (and the combines run as one) for non-merging windows under a {@link
 * WatermarkTrigger}: the same panes, timestamps, pane infos, lateness, closing and output watermark
 * as runners-core's {@code ReduceFnRunner} with that trigger's state machine, without its
 * per-element machinery. runners-core reads and writes about fifteen state cells and sets two or
 * three timers for every element (finished bits, sub-trigger state, pane info, non-empty count, two
 * holds, the end-of-window and garbage-collection timers); here a window's trigger and pane state
 * is one cell ({@link WindowPaneState}), read and written once per element next to the buffer, a
 * window's timers are set when its first element arrives (setting them again, as runners-core does
 * per element, changes nothing), and no holds are needed ({@link #outputWatermarkHold}).
 *
 * <p>The values go through the transform's {@link SystemReduceFn} (a bag, or a combine's
 * accumulator), as under runners-core. Every rule below names the runners-core behaviour it keeps;
 * {@code WatermarkTriggerGroupByKeyOperatorTest} runs both on the same random inputs and compares
 * every pane and the output watermark.
 */
final class WatermarkTriggerGroupByKeyOperator<K, InT, OutT>
    extends KeyedGroupingOperator<K, InT, OutT> {

  private static final StateTag<ValueState<WindowPaneState>> PANE_TAG =
      StateTags.makeSystemTagInternal(StateTags.value("pane", WindowPaneState.StateCoder.INSTANCE));

  private final WatermarkTrigger trigger;
  private WindowingStrategy<?, BoundedWindow> strategy;
  private Coder<BoundedWindow> windowCoder;
  private SystemReduceFn<K, InT, ?, OutT, BoundedWindow> reduceFn;
  private BackendStateInternals<K> state;
  private KeyedTimerInternals timers;
  private boolean discarding;
  private boolean fireAlwaysOnClose;
  private boolean fireAlwaysOnTime;
  private Counter droppedDueToLateness;
  private Counter droppedDueToClosedWindow;

  /** The window being worked on, and its key: what the reduce function's contexts see. */
  private K currentKey;

  private BoundedWindow currentWindow;
  private StateNamespace currentNamespace;
  private WindowedValue<KV<K, InT>> currentValue;
  private PaneInfo currentPane;
  private WindowPaneState currentState;
  private boolean currentFinished;

  private ReduceFn<K, InT, OutT, BoundedWindow>.ProcessValueContext valueContext;
  private ReduceFn<K, InT, OutT, BoundedWindow>.OnTriggerContext triggerContext;

  WatermarkTriggerGroupByKeyOperator(GroupByKeyOperator.Spec<K, InT, OutT> spec) {
    super(spec);
    this.trigger =
        WatermarkTrigger.of(spec.windowingStrategy())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a watermark trigger over non-merging windows: "
                            + spec.windowingStrategy()));
  }

  @Override
  @SuppressWarnings("unchecked")
  protected void openGrouping() {
    strategy = windowingStrategy();
    windowCoder = (Coder<BoundedWindow>) strategy.getWindowFn().windowCoder();
    reduceFn = spec.reduceFn();
    state = keyed.stateInternals();
    timers = keyed.timerInternals();
    discarding = strategy.getMode() == AccumulationMode.DISCARDING_FIRED_PANES;
    fireAlwaysOnClose = strategy.getClosingBehavior() == ClosingBehavior.FIRE_ALWAYS;
    fireAlwaysOnTime = strategy.getOnTimeBehavior() == OnTimeBehavior.FIRE_ALWAYS;
    droppedDueToLateness =
        spec.metrics()
            .container()
            .getCounter(
                MetricName.named(
                    LateDataDroppingDoFnRunner.class,
                    LateDataDroppingDoFnRunner.DROPPED_DUE_TO_LATENESS));
    droppedDueToClosedWindow =
        spec.metrics()
            .container()
            .getCounter(
                MetricName.named(
                    ReduceFnRunner.class, ReduceFnRunner.DROPPED_DUE_TO_CLOSED_WINDOW));
    StateAccessor<K> accessor =
        new StateAccessor<>() {
          @Override
          public <StateT extends State> StateT access(StateTag<StateT> address) {
            return state.state(currentNamespace, address);
          }
        };
    Timers windowTimers = new WindowTimers();
    valueContext =
        reduceFn.new ProcessValueContext() {
          @Override
          public K key() {
            return currentKey;
          }

          @Override
          public BoundedWindow window() {
            return currentWindow;
          }

          @Override
          public WindowingStrategy<?, BoundedWindow> windowingStrategy() {
            return strategy;
          }

          @Override
          public StateAccessor<K> state() {
            return accessor;
          }

          @Override
          public Timers timers() {
            return windowTimers;
          }

          @Override
          public InT value() {
            return currentValue.getValue().getValue();
          }

          @Override
          public CausedByDrain causedByDrain() {
            return currentValue.causedByDrain();
          }

          @Override
          public Instant timestamp() {
            return currentValue.getTimestamp();
          }
        };
    triggerContext =
        reduceFn.new OnTriggerContext() {
          @Override
          public K key() {
            return currentKey;
          }

          @Override
          public BoundedWindow window() {
            return currentWindow;
          }

          @Override
          public WindowingStrategy<?, BoundedWindow> windowingStrategy() {
            return strategy;
          }

          @Override
          public StateAccessor<K> state() {
            return accessor;
          }

          @Override
          public Timers timers() {
            return windowTimers;
          }

          @Override
          public PaneInfo paneInfo() {
            return currentPane;
          }

          @Override
          public CausedByDrain causedByDrain() {
            return CausedByDrain.NORMAL;
          }

          @Override
          public void output(OutT output) {
            // As runners-core's pane tracker: the pane is remembered when it is output, unless it
            // was the window's last.
            if (!currentFinished) {
              currentState.lastPane = currentPane;
            }
            emit(
                WindowedValues.of(
                    KV.of(currentKey, output),
                    currentWindow.maxTimestamp(),
                    currentWindow,
                    currentPane));
          }
        };
  }

  /**
   * No watermark holds. runners-core holds the output at the end of the window for a pane with
   * elements, and at garbage collection for a late pane (or one that must close the window); but it
   * adds such a hold only while the input watermark has not passed it, and the end-of-window or
   * garbage-collection timer that releases it fires in the very step in which the input watermark
   * passes it. So a hold here is never below the input watermark, and the output watermark (their
   * minimum, {@code OperatorChain}) is the input watermark either way. With another output time (an
   * element's timestamp) the hold would matter; such windowing goes to runners-core.
   */
  @Override
  public long outputWatermarkHold() {
    return Long.MAX_VALUE;
  }

  @Override
  protected void processKeyedElement(K key, WindowedValue<KV<K, InT>> value) {
    Collection<? extends BoundedWindow> windows = value.getWindows();
    if (windows.size() == 1) {
      processInWindow(key, value, windows.iterator().next());
    } else {
      for (BoundedWindow window : new LinkedHashSet<>(windows)) {
        processInWindow(key, value, window);
      }
    }
  }

  private void processInWindow(K key, WindowedValue<KV<K, InT>> value, BoundedWindow window) {
    Instant inputWatermark = timers.currentInputWatermarkTime();
    Instant gcTime = LateDataUtils.garbageCollectionTime(window, strategy);
    // LateDataDroppingDoFnRunner: a window whose garbage collection is past is dropped.
    if (gcTime.isBefore(inputWatermark)) {
      droppedDueToLateness.inc();
      return;
    }
    enter(key, window);
    ValueState<WindowPaneState> cell = state.state(currentNamespace, PANE_TAG);
    WindowPaneState pane = cell.read();
    boolean created = pane == null;
    if (created) {
      pane = new WindowPaneState();
    } else if (pane.closed) {
      droppedDueToClosedWindow.inc();
      return;
    }
    currentState = pane;
    currentValue = value;
    long maxTimestamp = window.maxTimestamp().getMillis();
    boolean endOfWindowReached = inputWatermark.getMillis() > maxTimestamp;
    if (created) {
      // runners-core sets both for every element; once per window is the same set of timers.
      setEventTimer(gcTime);
      if (!endOfWindowReached) {
        setEventTimer(window.maxTimestamp());
      }
    }
    pane.nonEmpty = true;
    try {
      reduceFn.processValue(valueContext);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
    // The current sub-trigger's onElement.
    WatermarkTrigger.SubTrigger active = pane.onTimeFired ? trigger.late() : trigger.early();
    switch (active.kind()) {
      case ELEMENT_COUNT -> pane.count++;
      case PROCESSING_DELAY -> {
        if (!pane.hasDelay) {
          long target = timers.currentProcessingTime().getMillis() + active.amount();
          pane.hasDelay = true;
          pane.delayedUntil = target;
          Instant at = new Instant(target);
          timers.setTimer(
              TimerData.of(
                  currentNamespace, at, at, TimeDomain.PROCESSING_TIME, CausedByDrain.NORMAL));
        }
      }
      case NEVER -> {}
    }
    if (shouldFire(pane, endOfWindowReached)) {
      fire(pane, endOfWindowReached);
    }
    cell.write(pane);
  }

  @Override
  protected void onTimers(K key, List<TimerData> due) {
    Instant inputWatermark = timers.currentInputWatermarkTime();
    // One activation per window, in the order of its first timer (ReduceFnRunner.onTimers).
    List<BoundedWindow> windows = new ArrayList<>(due.size());
    for (TimerData timer : due) {
      @SuppressWarnings("unchecked")
      BoundedWindow window =
          ((StateNamespaces.WindowNamespace<BoundedWindow>) timer.getNamespace()).getWindow();
      if (timer.getDomain() != TimeDomain.EVENT_TIME
          && inputWatermark.isAfter(window.maxTimestamp().plus(strategy.getAllowedLateness()))) {
        continue; // an expired window's processing-time timer does nothing
      }
      if (!windows.contains(window)) {
        windows.add(window);
      }
    }
    for (BoundedWindow window : windows) {
      onWindowTimers(key, window, inputWatermark);
    }
  }

  private void onWindowTimers(K key, BoundedWindow window, Instant inputWatermark) {
    enter(key, window);
    ValueState<WindowPaneState> cell = state.state(currentNamespace, PANE_TAG);
    WindowPaneState pane = cell.read();
    if (pane == null) {
      pane = new WindowPaneState();
    }
    currentState = pane;
    Instant gcTime = LateDataUtils.garbageCollectionTime(window, strategy);
    boolean endOfWindowReached = inputWatermark.isAfter(window.maxTimestamp());
    if (inputWatermark.isAfter(gcTime)) {
      if (!pane.closed) {
        onTrigger(pane, true);
        clearBuffer(window);
      }
      cell.clear();
      return;
    }
    if (!pane.closed && shouldFire(pane, endOfWindowReached)) {
      fire(pane, endOfWindowReached);
    }
    // ReduceFnRunner sets the garbage-collection timer again here at the end of the window; it was
    // set with the window's first element and has not fired (that would be the branch above).
    cell.write(pane);
  }

  /** The trigger's shouldFire: the early sub-trigger or the end of the window, then the late. */
  private boolean shouldFire(WindowPaneState pane, boolean endOfWindowReached) {
    if (!pane.onTimeFired) {
      return subTriggerShouldFire(trigger.early(), pane) || endOfWindowReached;
    }
    return trigger.late() != null && subTriggerShouldFire(trigger.late(), pane);
  }

  private boolean subTriggerShouldFire(WatermarkTrigger.SubTrigger sub, WindowPaneState pane) {
    return switch (sub.kind()) {
      case NEVER -> false;
      case ELEMENT_COUNT -> pane.count >= sub.amount();
      case PROCESSING_DELAY ->
          pane.hasDelay && timers.currentProcessingTime().getMillis() > pane.delayedUntil;
    };
  }

  /** ReduceFnRunner.emit: the trigger's onFire, then the pane, then what firing discards. */
  private void fire(WindowPaneState pane, boolean endOfWindowReached) {
    if (!pane.onTimeFired) {
      // AfterWatermarkEarlyAndLate.onNonLateFiring: the early sub-trigger starts afresh; at the
      // end of the window it finishes, and the late one starts (or the trigger finishes).
      pane.clearSubTrigger();
      if (endOfWindowReached) {
        pane.onTimeFired = true;
        if (trigger.late() == null) {
          pane.closed = true;
        }
      }
    } else {
      pane.clearSubTrigger(); // onLateFiring: the late sub-trigger starts afresh
    }
    boolean finished = pane.closed;
    onTrigger(pane, finished);
    pane.nonEmpty = false;
    if (finished || discarding) {
      clearBuffer(currentWindow);
    }
    if (finished) {
      pane.clearSubTrigger();
      pane.lastPane = null;
    }
  }

  /** ReduceFnRunner.onTrigger: works out the pane and outputs it if it must. */
  private void onTrigger(WindowPaneState pane, boolean finished) {
    BoundedWindow window = currentWindow;
    Instant inputWatermark = timers.currentInputWatermarkTime();
    boolean empty = !pane.nonEmpty;
    if (empty && !fireAlwaysOnClose && !fireAlwaysOnTime) {
      return;
    }
    PaneInfo paneInfo = nextPane(pane.lastPane, window.maxTimestamp(), inputWatermark, finished);
    boolean emitPane =
        !empty
            || (paneInfo.getTiming() == Timing.ON_TIME && fireAlwaysOnTime)
            || (finished && fireAlwaysOnClose);
    if (emitPane) {
      currentPane = paneInfo;
      currentFinished = finished;
      try {
        reduceFn.onTrigger(triggerContext);
      } catch (Exception e) {
        throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
      }
    }
  }

  /** PaneInfoTracker.describePane, with no output watermark (runners-core's when unknown). */
  private static PaneInfo nextPane(
      PaneInfo previous, Instant windowMaxTimestamp, Instant inputWatermark, boolean last) {
    boolean first = previous == null;
    long index = first ? 0 : previous.getIndex() + 1;
    long nonSpeculativeIndex = first ? 0 : previous.getNonSpeculativeIndex() + 1;
    boolean onlyEarlySoFar = first || previous.getTiming() == Timing.EARLY;
    Timing timing;
    if (!onlyEarlySoFar) {
      timing = Timing.LATE;
    } else if (!inputWatermark.isAfter(windowMaxTimestamp)) {
      timing = Timing.EARLY;
      nonSpeculativeIndex = -1;
    } else {
      timing = Timing.ON_TIME;
    }
    return PaneInfo.createPane(first, last, timing, index, nonSpeculativeIndex);
  }

  private void clearBuffer(BoundedWindow window) {
    try {
      reduceFn.clearState(valueContext);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
  }

  private void enter(K key, BoundedWindow window) {
    currentKey = key;
    currentWindow = window;
    currentNamespace = StateNamespaces.window(windowCoder, window);
  }

  private void setEventTimer(Instant at) {
    timers.setTimer(
        TimerData.of(currentNamespace, at, at, TimeDomain.EVENT_TIME, CausedByDrain.NORMAL));
  }

  /** Timers of the current window, for a reduce function that asks (the system ones do not). */
  private final class WindowTimers implements Timers {
    @Override
    public void setTimer(Instant timestamp, TimeDomain timeDomain) {
      setTimer(timestamp, timestamp, timeDomain);
    }

    @Override
    public void setTimer(Instant timestamp, Instant outputTimestamp, TimeDomain timeDomain) {
      timers.setTimer(
          TimerData.of(
              currentNamespace, timestamp, outputTimestamp, timeDomain, CausedByDrain.NORMAL));
    }

    @Override
    public void deleteTimer(Instant timestamp, TimeDomain timeDomain) {
      timers.deleteTimer(
          TimerData.of(currentNamespace, timestamp, timestamp, timeDomain, CausedByDrain.NORMAL));
    }

    @Override
    public Instant currentProcessingTime() {
      return timers.currentProcessingTime();
    }

    @Override
    public Instant currentSynchronizedProcessingTime() {
      return timers.currentSynchronizedProcessingTime();
    }

    @Override
    public Instant currentEventTime() {
      return timers.currentInputWatermarkTime();
    }
  }
}
