package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.KeyedTimerInternals;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Supplier;
import org.apache.beam.runners.core.LateDataDroppingDoFnRunner;
import org.apache.beam.runners.core.LateDataUtils;
import org.apache.beam.runners.core.ReduceFnRunner;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.PaneInfo.Timing;
import org.apache.beam.sdk.transforms.windowing.Window.ClosingBehavior;
import org.apache.beam.sdk.transforms.windowing.Window.OnTimeBehavior;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.util.UserCodeException;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.apache.beam.sdk.values.WindowingStrategy.AccumulationMode;
import org.joda.time.Instant;

/**
 * GroupByKey (and the combines run as one) under a {@link WatermarkTrigger}: the same panes,
 * timestamps, pane infos, lateness, closing and output watermark as runners-core's {@code
 * ReduceFnRunner} with that trigger's state machine, without its per-element machinery.
 * runners-core reads and writes about fifteen state cells and sets two or three timers for every
 * element (finished bits, sub-trigger state, pane info, non-empty count, two holds, the
 * end-of-window and garbage-collection timers); here a window's trigger and pane state is one cell
 * ({@link WindowPaneState}), read and written once per element next to the buffer, a window's
 * timers are set when it appears (setting them again, as runners-core does per element, changes
 * nothing), and no holds are needed ({@link #outputWatermarkHold}).
 *
 * <p>Merging windows (sessions, Nexmark's auction windows) keep the key's windows, with each one's
 * pane state, in one cell of the key ({@link MergingWindows}) instead. A merged window keeps its
 * values, its pane state and its end-of-window and garbage-collection timers where one of its parts
 * had them (its state window), so a session that grows by an element rewrites the key's windows
 * cell, and moves no values; its timers follow lazily, when they fire at where the session ended
 * before.
 *
 * <p>The values go through the transform's {@link SystemReduceFn} (a bag, or a combine's
 * accumulator), as under runners-core. Every rule below names the runners-core behaviour it keeps;
 * {@code WatermarkTriggerGroupByKeyOperatorTest} runs both on the same random inputs and compares
 * every pane and the output watermark.
 */
final class WatermarkTriggerGroupByKeyOperator<K, InT, OutT>
    extends KeyedGroupingOperator<K, InT, OutT> {

  /** Ids of a window's end-of-window and garbage-collection timers, in its state window. */
  private static final String END_OF_WINDOW_TIMER = "eow";

  private static final String GARBAGE_COLLECTION_TIMER = "gc";

  /** Id of a closed merging window's garbage-collection timer, in its own namespace. */
  private static final String CLOSED_GARBAGE_COLLECTION_TIMER = "closed-gc";

  private static final StateTag<ValueState<WindowPaneState>> PANE_TAG =
      StateTags.makeSystemTagInternal(StateTags.value("pane", WindowPaneState.StateCoder.INSTANCE));

  private final WatermarkTrigger trigger;
  private final boolean merging;
  private WindowingStrategy<?, BoundedWindow> strategy;
  private WindowFn<Object, BoundedWindow> windowFn;
  private Coder<BoundedWindow> windowCoder;
  private SystemReduceFn<K, InT, ?, OutT, BoundedWindow> reduceFn;
  private BackendStateInternals<K> state;
  private KeyedTimerInternals timers;
  private boolean discarding;
  private boolean fireAlwaysOnClose;
  private boolean fireAlwaysOnTime;
  private Counter droppedDueToLateness;
  private Counter droppedDueToClosedWindow;

  /** The window being worked on, its key and where its values are. */
  private ReduceFnContexts<K, InT, OutT> contexts;

  /** Merging windows: the active windows of the key (cell in the global namespace). */
  private StateTag<ValueState<MergingWindows>> windowsTag;

  /** Merging windows: those the bundle's elements changed, until {@link #writeBackHeldState}. */
  private final BundleCellCache<K, MergingWindows> bundleWindows = new BundleCellCache<>();

  /** Other windows: the panes the bundle's elements changed, until {@link #writeBackHeldState}. */
  private final BundleCellCache<K, WindowPaneState> bundlePanes = new BundleCellCache<>();

  /**
   * Merging windows whose elements fire nothing as they come (see {@link #batchesMerging}): the
   * bundle's elements, by key, until {@link #processHeldElements}.
   */
  private final GroupedByKey<WindowedValue<KV<K, InT>>> heldElements = new GroupedByKey<>();

  /** Whether the bundle's elements are held by key: while keys come back often enough. */
  private final BundleRepeats heldElementRepeats = new BundleRepeats();

  /** Whether elements may be held by key and merged a key at a time ({@link #batchesMerging}). */
  private final boolean batchesMerging;

  /** The current key's windows cell; made once, as it is asked for per element. */
  private final Supplier<ValueState<MergingWindows>> windowsCellOfKey =
      () -> state.state(StateNamespaces.global(), windowsTag);

  /** The current window's pane cell (other than merging windows). */
  private final Supplier<ValueState<WindowPaneState>> paneCellOfWindow = () -> paneCell(null);

  /** The state of the window whose pane is being output, and whether it is its last. */
  private WindowPaneState currentState;

  private boolean currentFinished;

  /** The step's metrics, for this instance. */
  private final OperatorMetrics metrics;

  WatermarkTriggerGroupByKeyOperator(GroupByKeyOperator.Spec<K, InT, OutT> spec) {
    super(spec);
    this.trigger =
        WatermarkTrigger.of(spec.windowingStrategy())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a watermark trigger with the end-of-window output time: "
                            + spec.windowingStrategy()));
    this.merging = !spec.windowingStrategy().getWindowFn().isNonMerging();
    this.batchesMerging = merging && firesNothingOnArrivalBeforeEnd(trigger);
    this.metrics = spec.metrics().forInstance();
  }

  /**
   * Whether an element whose windows have not ended changes only state: no early firings, and no
   * late sub-trigger that sets a processing-time timer when it sees an element (under merging
   * windows every sub-trigger sees every element). Such elements of one key may then be merged into
   * the key's windows together, as runners-core's ReduceFnRunner merges the windows of a batch of a
   * key's elements once (processElements), without any pane coming out sooner or later.
   */
  private static boolean firesNothingOnArrivalBeforeEnd(WatermarkTrigger trigger) {
    return trigger.early().kind() == WatermarkTrigger.SubTrigger.Kind.NEVER
        && (trigger.late() == null
            || trigger.late().kind() != WatermarkTrigger.SubTrigger.Kind.PROCESSING_DELAY);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected void openGrouping() {
    strategy = windowingStrategy();
    windowCoder = (Coder<BoundedWindow>) strategy.getWindowFn().windowCoder();
    windowFn = (WindowFn<Object, BoundedWindow>) strategy.getWindowFn();
    windowsTag =
        StateTags.makeSystemTagInternal(
            StateTags.value("windows", new MergingWindows.SetCoder(windowCoder)));
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
    contexts =
        new ReduceFnContexts<>(
            reduceFn,
            strategy,
            windowCoder,
            state,
            timers,
            output -> {
              // As runners-core's pane tracker: the pane is remembered when it is output, unless
              // it was the window's last.
              if (!currentFinished) {
                currentState.lastPane = contexts.pane();
              }
              BoundedWindow window = contexts.window();
              emit(
                  WindowedValues.of(
                      KV.of(contexts.key(), output),
                      window.maxTimestamp(),
                      window,
                      contexts.pane()));
            });
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
    if (batchesMerging) {
      holdOrProcessMerging(key, value);
    } else {
      inStep(() -> processScoped(key, value));
    }
  }

  /** Holds the element with its key's others, or processes it now if it may fire a pane. */
  private void holdOrProcessMerging(K key, WindowedValue<KV<K, InT>> value) {
    byte[] keyBytes = state.getEncodedKey();
    if (!heldElementRepeats.isOn()) {
      heldElementRepeats.count(1, 0); // counted towards the next probe
    } else if (!anyWindowEnded(value)) {
      heldElements.add(keyBytes, value);
      return;
    }
    // An element that may fire comes after those held before it.
    if (!heldElements.isEmpty()) {
      processHeldElements();
      makeCurrent(keyBytes, key, value.getTimestamp());
    }
    inStep(() -> processMergingElements(keyBytes, key, List.of(value)));
  }

  /** Whether the input watermark has passed the end of one of the element's windows. */
  private boolean anyWindowEnded(WindowedValue<KV<K, InT>> value) {
    long inputWatermark = timers.currentInputWatermarkTime().getMillis();
    for (BoundedWindow window : value.getWindows()) {
      if (inputWatermark > window.maxTimestamp().getMillis()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The held elements, a key at a time: each key's windows merged with all of its elements' windows
   * at once, then its elements into the windows they merged into, in the order they came.
   *
   * <p>Why: in Nexmark's WinningBids half of the bids go to a few hot auctions, and merging each
   * bid's window into its auction's alone (the WindowFn's merge, the merged pane and values, the
   * key's windows) was about half of that GroupByKey's time per element.
   */
  @Override
  protected void processHeldElements() {
    if (heldElements.isEmpty()) {
      return;
    }
    try {
      for (int k = 0; k < heldElements.keys(); k++) {
        byte[] keyBytes = heldElements.keyOf(k);
        List<WindowedValue<KV<K, InT>>> values = heldElements.itemsOf(k);
        WindowedValue<KV<K, InT>> first = values.get(0);
        K key = first.getValue().getKey();
        makeCurrent(keyBytes, key, first.getTimestamp());
        inStep(() -> processMergingElements(keyBytes, key, values));
      }
      heldElementRepeats.count(heldElements.size(), heldElements.size() - heldElements.keys());
    } finally {
      heldElements.clear();
    }
  }

  @Override
  public void finishBundle() {
    super.finishBundle(); // processes the held elements first
    heldElementRepeats.endBundle();
  }

  /**
   * Runs {@code work} with the step's metrics container current, as the DoFn runner around
   * runners-core's reduce logic does: a CombineFn or a WindowFn reports its metrics to its step.
   */
  private void inStep(OperatorMetrics.Action work) {
    try {
      metrics.scoped(work);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
  }

  private void processScoped(K key, WindowedValue<KV<K, InT>> value) {
    if (merging) {
      processMergingElements(state.getEncodedKey(), key, List.of(value));
      return;
    }
    Collection<? extends BoundedWindow> windows = value.getWindows();
    if (windows.size() == 1) {
      BoundedWindow window = windows.iterator().next();
      if (!droppedAsLate(window)) {
        processInWindow(key, value, window, window, null, null);
      }
    } else {
      for (BoundedWindow window : new LinkedHashSet<>(windows)) {
        if (!droppedAsLate(window)) {
          processInWindow(key, value, window, window, null, null);
        }
      }
    }
  }

  /** LateDataDroppingDoFnRunner: a window whose garbage collection is past is dropped. */
  private boolean droppedAsLate(BoundedWindow window) {
    if (LateDataUtils.garbageCollectionTime(window, strategy)
        .isBefore(timers.currentInputWatermarkTime())) {
      droppedDueToLateness.inc();
      return true;
    }
    return false;
  }

  /**
   * Elements of one key under merging windows, as ReduceFnRunner.processElements: their windows
   * merge with the key's active windows first (mergeWindows, once), then each element goes into the
   * windows its windows merged into. Several elements are merged together only where none of them
   * fires a pane as it comes (their merged windows have not ended; see {@link #batchesMerging}), so
   * the panes are those of processing them one by one; otherwise they are, one by one.
   */
  private void processMergingElements(
      byte[] keyBytes, K key, List<WindowedValue<KV<K, InT>>> values) {
    List<List<BoundedWindow>> windowsOfValues = new ArrayList<>(values.size());
    List<BoundedWindow> allWindows = new ArrayList<>();
    for (WindowedValue<KV<K, InT>> value : values) {
      Collection<? extends BoundedWindow> elementWindows = value.getWindows();
      List<BoundedWindow> windows = new ArrayList<>(elementWindows.size());
      for (BoundedWindow window : elementWindows) {
        if (!droppedAsLate(window) && MergingWindows.indexOf(windows, window) < 0) {
          windows.add(window);
          if (MergingWindows.indexOf(allWindows, window) < 0) {
            allWindows.add(window);
          }
        }
      }
      windowsOfValues.add(windows);
    }
    if (allWindows.isEmpty()) {
      return;
    }
    WindowedValue<KV<K, InT>> last = values.get(values.size() - 1);
    // Held for the bundle (written back later), or read and written here.
    BundleCellCache.Entry<K, MergingWindows> held =
        bundleWindows.held(keyBytes, null, key, last.getTimestamp(), windowsCellOfKey);
    ValueState<MergingWindows> windowsCell = held != null ? held.cell : windowsCellOfKey.get();
    MergingWindows active = held != null ? held.value : windowsCell.read();
    if (active == null) {
      active = MergingWindows.empty();
    }
    List<MergingWindows.Merge> merges = merges(active, allWindows);
    if (values.size() == 1 || noneEnded(merges, allWindows)) {
      processMerged(keyBytes, key, values, windowsOfValues, active, merges);
    } else {
      for (int i = 0; i < values.size(); i++) {
        List<BoundedWindow> windows = windowsOfValues.get(i);
        if (!windows.isEmpty()) {
          WindowedValue<KV<K, InT>> value = values.get(i);
          makeCurrent(keyBytes, key, value.getTimestamp());
          processMerged(
              keyBytes, key, List.of(value), List.of(windows), active, merges(active, windows));
        }
      }
    }
    if (held != null) {
      held.value = active;
    } else {
      writeWindows(windowsCell, active);
    }
  }

  /** The merges of the key's {@code active} windows with {@code windows} (the WindowFn's). */
  private List<MergingWindows.Merge> merges(MergingWindows active, List<BoundedWindow> windows) {
    try {
      return active.merges(windowFn, windows);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
  }

  /** Whether no window that {@code windows} merge into has ended (none fires as it is added to). */
  private boolean noneEnded(List<MergingWindows.Merge> merges, List<BoundedWindow> windows) {
    long inputWatermark = timers.currentInputWatermarkTime().getMillis();
    for (BoundedWindow window : windows) {
      if (inputWatermark > mergedInto(merges, window).maxTimestamp().getMillis()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Applies {@code merges} to the key's {@code active} windows, then puts each of {@code values}
   * (the key current for each) into the windows its {@code windowsOfValues} merged into.
   */
  private void processMerged(
      byte[] keyBytes,
      K key,
      List<WindowedValue<KV<K, InT>>> values,
      List<List<BoundedWindow>> windowsOfValues,
      MergingWindows active,
      List<MergingWindows.Merge> merges) {
    // The merged state of each merge's result, by merge; null once written.
    WindowPaneState[] mergedPanes = new WindowPaneState[merges.size()];
    for (int i = 0; i < merges.size(); i++) {
      mergedPanes[i] = applyMerge(key, active, merges.get(i));
    }
    for (int v = 0; v < values.size(); v++) {
      WindowedValue<KV<K, InT>> value = values.get(v);
      if (v > 0) {
        makeCurrent(keyBytes, key, value.getTimestamp());
      }
      List<BoundedWindow> windows = windowsOfValues.get(v);
      List<BoundedWindow> targets = new ArrayList<>(windows.size());
      for (BoundedWindow window : windows) {
        BoundedWindow target = mergedInto(merges, window);
        if (MergingWindows.indexOf(targets, target) < 0) {
          targets.add(target);
        }
      }
      for (BoundedWindow window : targets) {
        processInMergedWindow(key, value, window, merges, mergedPanes, active);
      }
    }
    // A merge of active windows alone (no element of this one in it) is written as it is.
    for (int i = 0; i < mergedPanes.length; i++) {
      if (mergedPanes[i] != null) {
        active.putPane(active.stateWindowOf(merges.get(i).result()), mergedPanes[i]);
      }
    }
  }

  /** One element into {@code window}, one of the key's windows after the merges. */
  private void processInMergedWindow(
      K key,
      WindowedValue<KV<K, InT>> value,
      BoundedWindow window,
      List<MergingWindows.Merge> merges,
      WindowPaneState[] mergedPanes,
      MergingWindows active) {
    if (active.isClosed(window)) {
      droppedDueToClosedWindow.inc(); // its trigger finished
      return;
    }
    BoundedWindow activeStateWindow = active.stateWindowOfActive(window);
    boolean isNew = activeStateWindow == null;
    if (isNew && active.windowOfStateWindow(window) != null) {
      throw new IllegalStateException(
          windowFn
              + " made window "
              + window
              + " anew without merging it into "
              + active.windowOfStateWindow(window)
              + ", which was merged from a window equal to it; ArconRunner's grouping of merging"
              + " windows needs a merged window's parts to merge with it again");
    }
    BoundedWindow stateWindow = isNew ? window : activeStateWindow;
    WindowPaneState pane =
        processInWindow(
            key, value, window, stateWindow, takeMergedPane(merges, mergedPanes, window), active);
    if (pane != null) {
      // ensureWindowIsActive, and a window whose trigger finished is no longer active.
      if (pane.closed) {
        close(active, window);
      } else if (isNew) {
        active.activate(window, stateWindow);
      }
    }
  }

  /** Writes the cells the bundle's elements changed (merging windows, panes) back. */
  @Override
  protected void writeBackHeldState() {
    bundleWindows.writeBack(
        held -> {
          if (held.value != null) { // else its element failed before merging: nothing changed
            // The cell bound to the key writes to it; the key's event time is the write's cause.
            keyed.setCurrentKey(held.encodedKey, held.key, held.eventTime);
            writeWindows(held.cell, held.value);
          }
        });
    bundlePanes.writeBack(
        held -> {
          if (held.value != null) {
            keyed.setCurrentKey(held.encodedKey, held.key, held.eventTime);
            held.cell.write(held.value);
          }
        });
  }

  /** The result of the last merge that merged {@code window}, or the window itself. */
  private static BoundedWindow mergedInto(List<MergingWindows.Merge> merges, BoundedWindow window) {
    BoundedWindow into = window;
    for (MergingWindows.Merge merge : merges) {
      if (MergingWindows.indexOf(merge.toBeMerged(), window) >= 0) {
        into = merge.result();
      }
    }
    return into;
  }

  /**
   * The merged state of the last merge whose result is {@code window}, taken out of {@code
   * mergedPanes} (with those of earlier merges to it, which it replaced), or null.
   */
  private static WindowPaneState takeMergedPane(
      List<MergingWindows.Merge> merges, WindowPaneState[] mergedPanes, BoundedWindow window) {
    WindowPaneState taken = null;
    for (int i = 0; i < mergedPanes.length; i++) {
      BoundedWindow result = merges.get(i).result();
      if (mergedPanes[i] != null && (result == window || result.equals(window))) {
        taken = mergedPanes[i];
        mergedPanes[i] = null;
      }
    }
    return taken;
  }

  private static void writeWindows(ValueState<MergingWindows> cell, MergingWindows windows) {
    if (windows.isEmpty()) {
      cell.clear();
    } else {
      cell.write(windows);
    }
  }

  /**
   * ReduceFnRunner's merge callback for one merge: the parts' values go where the result keeps them
   * (its state window), their trigger state merges as the trigger's onMerge does, the result keeps
   * its own pane info (a new window has none), and the parts that are gone lose their pane state
   * and their end-of-window and garbage-collection timers (not their processing-time timers, which
   * find them inactive when they fire). The state window's timers move to the result's times:
   * runners-core deletes the parts' and sets the result's. Returns the result's state, for the
   * caller to write.
   */
  private WindowPaneState applyMerge(K key, MergingWindows windows, MergingWindows.Merge merge) {
    BoundedWindow result = merge.result();
    Instant inputWatermark = timers.currentInputWatermarkTime();
    List<BoundedWindow> activeParts = new ArrayList<>();
    List<BoundedWindow> activePartStates = new ArrayList<>();
    for (BoundedWindow part : merge.toBeMerged()) {
      BoundedWindow partState = windows.stateWindowOfActive(part);
      if (partState != null) {
        activeParts.add(part);
        activePartStates.add(partState);
      }
    }
    BoundedWindow resultState = windows.stateWindowOfActive(result);
    boolean resultWasActive = resultState != null;
    // A result that is a closed window (not active) keeps its finished trigger, as runners-core's
    // finished bits in that window's namespace.
    boolean resultWasClosed = !resultWasActive && windows.forgetClosed(result);
    BoundedWindow stateWindow =
        resultWasActive ? resultState : activeParts.isEmpty() ? result : activePartStates.get(0);
    List<BoundedWindow> sources = new ArrayList<>();
    for (BoundedWindow source : activePartStates) {
      if (!source.equals(stateWindow)) {
        sources.add(source);
      }
    }
    contexts.enter(key, result, stateWindow);
    if (!sources.isEmpty()) {
      contexts.mergeValues(sources);
    }
    WindowPaneState own =
        resultWasActive ? windows.pane(stateWindow) : resultWasClosed ? closedPane() : null;
    List<WindowPaneState> parts = new ArrayList<>(activeParts.size());
    for (int i = 0; i < activeParts.size(); i++) {
      WindowPaneState pane =
          activeParts.get(i).equals(result) ? own : windows.pane(activePartStates.get(i));
      parts.add(pane == null ? new WindowPaneState() : pane);
    }
    WindowPaneState merged = mergedPane(own, parts, inputWatermark.isAfter(result.maxTimestamp()));
    for (BoundedWindow part : activeParts) {
      BoundedWindow partState = windows.deactivate(part);
      if (!part.equals(result) && !partState.equals(stateWindow)) {
        dropWindowState(windows, partState);
      }
    }
    windows.activate(result, stateWindow);
    if (!resultWasActive && !timersFollowLazily(activeParts, result, inputWatermark)) {
      setWindowTimers(result, inputWatermark);
    }
    return merged;
  }

  /**
   * Whether the state window's timers may stay where its part's are, to be moved to the result's
   * times only when they fire ({@link #rearmedStale}): the part whose state window the result keeps
   * still has its timers pending (the watermark has not passed its end), and the result ends no
   * earlier. A session grows with nearly every element, and moving its timer each time was a sixth
   * of Nexmark Q11's time; a stale timer instead fires once the watermark passes where the session
   * ended then, and runners-core would have had no activation there, so it only re-arms.
   */
  private static boolean timersFollowLazily(
      List<BoundedWindow> activeParts, BoundedWindow result, Instant inputWatermark) {
    if (activeParts.isEmpty()) {
      return false; // the result is its own state window: no timers yet
    }
    Instant partEnd = activeParts.get(0).maxTimestamp();
    return !inputWatermark.isAfter(partEnd) && !result.maxTimestamp().isBefore(partEnd);
  }

  /**
   * An end-of-window or garbage-collection timer of a merging window's state window, set for an
   * earlier part of {@code window} (see {@link #timersFollowLazily}): set again at {@code window}'s
   * time; returns whether it was stale.
   */
  private boolean rearmedStale(TimerData timer, BoundedWindow window) {
    Instant due;
    if (timer.getTimerId().equals(END_OF_WINDOW_TIMER)) {
      due = window.maxTimestamp();
    } else if (timer.getTimerId().equals(GARBAGE_COLLECTION_TIMER)) {
      due = LateDataUtils.garbageCollectionTime(window, strategy);
    } else {
      return false;
    }
    if (!timer.getTimestamp().isBefore(due)) {
      return false;
    }
    timers.setTimer(
        TimerData.of(
            timer.getTimerId(),
            timer.getNamespace(),
            due,
            due,
            TimeDomain.EVENT_TIME,
            CausedByDrain.NORMAL));
    return true;
  }

  /**
   * A closed window's state: its trigger finished with the on-time pane (the only way a modelled
   * trigger finishes), its sub-triggers and pane info cleared.
   */
  private static WindowPaneState closedPane() {
    WindowPaneState pane = new WindowPaneState();
    pane.closed = true;
    pane.onTimeFired = true;
    return pane;
  }

  /**
   * A merging window whose trigger finished: it is no longer active, and its state window goes;
   * only its name stays, until its garbage collection, for elements of the same window to be
   * dropped.
   */
  private void close(MergingWindows windows, BoundedWindow window) {
    BoundedWindow stateWindow = windows.deactivate(window);
    if (stateWindow == null) {
      stateWindow = window;
    }
    dropWindowState(windows, stateWindow);
    windows.addClosed(window);
    Instant gcTime = LateDataUtils.garbageCollectionTime(window, strategy);
    timers.setTimer(
        TimerData.of(
            CLOSED_GARBAGE_COLLECTION_TIMER,
            StateNamespaces.window(windowCoder, window),
            gcTime,
            gcTime,
            TimeDomain.EVENT_TIME,
            CausedByDrain.NORMAL));
  }

  /** A state window no window uses any more: its pane state and window timers go. */
  private void dropWindowState(MergingWindows windows, BoundedWindow stateWindow) {
    windows.clearPane(stateWindow);
    StateNamespace namespace = StateNamespaces.window(windowCoder, stateWindow);
    for (String id : new String[] {END_OF_WINDOW_TIMER, GARBAGE_COLLECTION_TIMER}) {
      timers.deleteTimer(namespace, id, "", TimeDomain.EVENT_TIME);
    }
  }

  /**
   * The merged window's trigger and pane state, as the trigger state machines' onMerge leave it
   * (AfterWatermarkEarlyAndLate, AfterPane, AfterProcessingTime): {@code own} is what the result
   * window had (it may be one of the parts), {@code parts} the active windows merged. A merged
   * processing-time delay also sets its timer, as AfterProcessingTime.onMerge does.
   */
  private WindowPaneState mergedPane(
      WindowPaneState own, List<WindowPaneState> parts, boolean endOfWindowReached) {
    WindowPaneState merged = new WindowPaneState();
    merged.closed = own != null && own.closed;
    merged.lastPane = own == null ? null : own.lastPane;
    boolean ownIsPart = false;
    boolean allOnTime = true;
    boolean anyOnTime = false;
    for (WindowPaneState part : parts) {
      ownIsPart |= part == own;
      allOnTime &= part.onTimeFired;
      anyOnTime |= part.onTimeFired;
      merged.nonEmpty |= part.nonEmpty;
    }
    // What the sub-triggers' merges combine: every part's state, and the result's own.
    List<WindowPaneState> sources = parts;
    if (own != null && !ownIsPart) {
      sources = new ArrayList<>(parts);
      sources.add(own);
    }
    if (allOnTime && endOfWindowReached) {
      // The early trigger stays finished (its state as the result had it); the late one merges.
      merged.onTimeFired = true;
      if (own != null) {
        merged.early.copyFrom(own.early);
      }
      if (trigger.plain()) {
        merged.closed = true; // FromEndOfWindow.onMerge: finished in every part and past its end
      }
      if (trigger.late() != null) {
        mergeSubTrigger(trigger.late(), merged.late, sources, false);
      }
    } else {
      // The early trigger merges, unless a count was finished in a part or a delay in the result
      // (then it is cleared); the late one merges and is then cleared.
      boolean earlyCleared =
          switch (trigger.early().kind()) {
            case ELEMENT_COUNT -> anyOnTime;
            case PROCESSING_DELAY -> own != null && own.onTimeFired;
            case NEVER -> true;
          };
      if (!earlyCleared) {
        mergeSubTrigger(trigger.early(), merged.early, sources, true);
      }
      if (trigger.late() != null) {
        mergeSubTrigger(trigger.late(), new WindowPaneState.SubState(), sources, false);
      }
    }
    return merged;
  }

  /**
   * AfterPane.onMerge (the counts add up) or AfterProcessingTime.onMerge (the earliest delay, and a
   * timer for it) into {@code into}.
   */
  private void mergeSubTrigger(
      WatermarkTrigger.SubTrigger sub,
      WindowPaneState.SubState into,
      List<WindowPaneState> sources,
      boolean early) {
    for (WindowPaneState source : sources) {
      WindowPaneState.SubState state = early ? source.early : source.late;
      switch (sub.kind()) {
        case ELEMENT_COUNT -> into.count += state.count;
        case PROCESSING_DELAY -> {
          if (state.hasDelay && (!into.hasDelay || state.delayedUntil < into.delayedUntil)) {
            into.hasDelay = true;
            into.delayedUntil = state.delayedUntil;
          }
        }
        case NEVER -> {}
      }
    }
    if (into.hasDelay) {
      setProcessingTimer(into.delayedUntil);
    }
  }

  /**
   * One element in one window (after any merge) whose values are in {@code stateWindow}'s
   * namespace: ReduceFnRunner.processElement, then the firing if the trigger says so. Returns the
   * window's state after, or null if the window's trigger had finished (the element is dropped).
   * Under merging windows the pane state is in the key's {@code windows}, else in a cell of the
   * window's namespace.
   */
  private WindowPaneState processInWindow(
      K key,
      WindowedValue<KV<K, InT>> value,
      BoundedWindow window,
      BoundedWindow stateWindow,
      WindowPaneState merged,
      MergingWindows windows) {
    Instant inputWatermark = timers.currentInputWatermarkTime();
    contexts.enter(key, window, stateWindow);
    // A window's own pane cell (other than merging windows): held for the bundle, or read here.
    BundleCellCache.Entry<K, WindowPaneState> held = null;
    ValueState<WindowPaneState> cell = null;
    WindowPaneState pane;
    if (windows != null) {
      pane = merged != null ? merged : windows.pane(stateWindow);
    } else {
      held =
          bundlePanes.held(
              state.getEncodedKey(), stateWindow, key, value.getTimestamp(), paneCellOfWindow);
      cell = held != null ? held.cell : paneCellOfWindow.get();
      pane = held != null ? held.value : cell.read();
    }
    boolean created = pane == null;
    if (created) {
      pane = new WindowPaneState();
    } else if (pane.closed) {
      droppedDueToClosedWindow.inc();
      if (merged != null) {
        writePane(cell, windows, stateWindow, merged);
      }
      return null;
    }
    currentState = pane;
    long maxTimestamp = window.maxTimestamp().getMillis();
    boolean endOfWindowReached = inputWatermark.getMillis() > maxTimestamp;
    if (created) {
      // runners-core sets both for every element; once per window is the same set of timers.
      setWindowTimers(window, inputWatermark);
    }
    pane.nonEmpty = true;
    contexts.addValue(value);
    // AfterWatermarkEarlyAndLate.onElement: the first unfinished sub-trigger sees the element, or
    // under merging windows every one does.
    if (merging) {
      onElement(trigger.early(), pane.early);
      if (trigger.late() != null) {
        onElement(trigger.late(), pane.late);
      }
    } else if (pane.onTimeFired) {
      onElement(trigger.late(), pane.late);
    } else {
      onElement(trigger.early(), pane.early);
    }
    if (shouldFire(pane, endOfWindowReached)) {
      fire(pane, endOfWindowReached);
    }
    if (held != null) {
      held.value = pane;
    } else {
      writePane(cell, windows, stateWindow, pane);
    }
    return pane;
  }

  /** The current window's pane cell, or null under merging windows (their panes are in theirs). */
  private ValueState<WindowPaneState> paneCell(MergingWindows windows) {
    return windows == null ? state.state(contexts.stateNamespace(), PANE_TAG) : null;
  }

  private static void writePane(
      ValueState<WindowPaneState> cell,
      MergingWindows windows,
      BoundedWindow stateWindow,
      WindowPaneState pane) {
    if (windows == null) {
      cell.write(pane);
    } else {
      windows.putPane(stateWindow, pane);
    }
  }

  @Override
  protected void onTimers(K key, List<TimerData> due) {
    inStep(() -> onTimersScoped(key, due));
  }

  private void onTimersScoped(K key, List<TimerData> due) {
    Instant inputWatermark = timers.currentInputWatermarkTime();
    ValueState<MergingWindows> windowsCell =
        merging ? state.state(StateNamespaces.global(), windowsTag) : null;
    MergingWindows known = merging ? windowsCell.read() : null;
    if (merging && known == null) {
      known = MergingWindows.empty();
    }
    boolean changed = false;
    // One activation per window, in the order of its first timer (ReduceFnRunner.onTimers).
    List<BoundedWindow> windows = new ArrayList<>(due.size());
    for (TimerData timer : due) {
      @SuppressWarnings("unchecked")
      BoundedWindow window =
          ((StateNamespaces.WindowNamespace<BoundedWindow>) timer.getNamespace()).getWindow();
      if (timer.getDomain() == TimeDomain.EVENT_TIME) {
        if (known != null) {
          if (timer.getTimerId().equals(CLOSED_GARBAGE_COLLECTION_TIMER)) {
            changed |= known.forgetClosed(window);
            continue;
          }
          // A merging window's own timers are in its state window's namespace.
          window = known.windowOfStateWindow(window);
          if (window == null || rearmedStale(timer, window)) {
            continue;
          }
        }
      } else if (inputWatermark.isAfter(
          window.maxTimestamp().plus(strategy.getAllowedLateness()))) {
        continue; // an expired window's processing-time timer does nothing
      }
      if (!windows.contains(window)) {
        windows.add(window);
      }
    }
    for (BoundedWindow window : windows) {
      changed |= onWindowTimers(key, window, inputWatermark, known);
    }
    if (changed) {
      writeWindows(windowsCell, known);
    }
  }

  /**
   * The due timers of one window. Under merging windows only an active window fires (a window
   * merged away finds its stale processing-time timers doing nothing); returns whether the key's
   * windows changed.
   */
  private boolean onWindowTimers(
      K key, BoundedWindow window, Instant inputWatermark, MergingWindows windows) {
    if (windows != null && !windows.isActive(window)) {
      return false; // a processing-time timer of a window merged away or closed
    }
    BoundedWindow stateWindow = windows == null ? window : windows.stateWindowOf(window);
    contexts.enter(key, window, stateWindow);
    ValueState<WindowPaneState> cell = paneCell(windows);
    WindowPaneState pane = windows == null ? cell.read() : windows.pane(stateWindow);
    if (pane == null) {
      pane = new WindowPaneState();
    }
    currentState = pane;
    Instant gcTime = LateDataUtils.garbageCollectionTime(window, strategy);
    boolean endOfWindowReached = inputWatermark.isAfter(window.maxTimestamp());
    if (inputWatermark.isAfter(gcTime)) {
      if (!pane.closed) {
        onTrigger(pane, true);
        contexts.clearValues();
      }
      if (windows == null) {
        cell.clear();
        return false;
      }
      windows.clearPane(stateWindow);
      return windows.deactivate(window) != null;
    }
    if (!pane.closed && shouldFire(pane, endOfWindowReached)) {
      fire(pane, endOfWindowReached);
    }
    if (windows != null && pane.closed) {
      close(windows, window); // its pane state goes with its state window
      return true;
    }
    // ReduceFnRunner sets the garbage-collection timer again here at the end of the window; it was
    // set with the window's first element and has not fired (that would be the branch above).
    writePane(cell, windows, stateWindow, pane);
    return windows != null;
  }

  /** A sub-trigger's onElement: AfterPane counts, AfterProcessingTime starts its delay. */
  private void onElement(WatermarkTrigger.SubTrigger sub, WindowPaneState.SubState state) {
    switch (sub.kind()) {
      case ELEMENT_COUNT -> state.count++;
      case PROCESSING_DELAY -> {
        if (!state.hasDelay) {
          long target = timers.currentProcessingTime().getMillis() + sub.amount();
          state.hasDelay = true;
          state.delayedUntil = target;
          setProcessingTimer(target);
        }
      }
      case NEVER -> {}
    }
  }

  /** The trigger's shouldFire: the early sub-trigger or the end of the window, then the late. */
  private boolean shouldFire(WindowPaneState pane, boolean endOfWindowReached) {
    if (!pane.onTimeFired) {
      return subTriggerShouldFire(trigger.early(), pane.early) || endOfWindowReached;
    }
    return trigger.late() != null && subTriggerShouldFire(trigger.late(), pane.late);
  }

  private boolean subTriggerShouldFire(
      WatermarkTrigger.SubTrigger sub, WindowPaneState.SubState state) {
    return switch (sub.kind()) {
      case NEVER -> false;
      case ELEMENT_COUNT -> state.count >= sub.amount();
      case PROCESSING_DELAY ->
          state.hasDelay && timers.currentProcessingTime().getMillis() > state.delayedUntil;
    };
  }

  /** ReduceFnRunner.emit: the trigger's onFire, then the pane, then what firing discards. */
  private void fire(WindowPaneState pane, boolean endOfWindowReached) {
    if (!pane.onTimeFired) {
      // AfterWatermarkEarlyAndLate.onNonLateFiring: the early sub-trigger starts afresh; at the
      // end of the window it finishes, and the late one starts (or the trigger finishes).
      pane.early.clear();
      if (endOfWindowReached) {
        pane.onTimeFired = true;
        if (trigger.late() == null) {
          pane.closed = true;
        } else {
          pane.late.clear();
        }
      }
    } else {
      pane.late.clear(); // onLateFiring: the late sub-trigger starts afresh
    }
    boolean finished = pane.closed;
    onTrigger(pane, finished);
    pane.nonEmpty = false;
    if (finished || discarding) {
      contexts.clearValues();
    }
    if (finished) {
      pane.early.clear();
      pane.late.clear();
      pane.lastPane = null;
    }
  }

  /** ReduceFnRunner.onTrigger: works out the pane and outputs it if it must. */
  private void onTrigger(WindowPaneState pane, boolean finished) {
    BoundedWindow window = contexts.window();
    Instant inputWatermark = timers.currentInputWatermarkTime();
    boolean empty = !pane.nonEmpty;
    if (empty && !fireAlwaysOnClose && !fireAlwaysOnTime) {
      return;
    }
    PaneInfo paneInfo =
        nextPane(
            pane.lastPane,
            window.maxTimestamp(),
            inputWatermark,
            timers.currentOutputWatermarkTime(),
            finished);
    boolean emitPane =
        !empty
            || (paneInfo.getTiming() == Timing.ON_TIME && fireAlwaysOnTime)
            || (finished && fireAlwaysOnClose);
    if (emitPane) {
      currentFinished = finished;
      contexts.outputPane(paneInfo);
    }
  }

  /**
   * PaneInfoTracker.describePane: LATE once the output watermark (null while unknown) passed the
   * window or a non-early pane fired, EARLY before the input watermark passes it, else ON_TIME.
   */
  private static PaneInfo nextPane(
      PaneInfo previous,
      Instant windowMaxTimestamp,
      Instant inputWatermark,
      Instant outputWatermark,
      boolean last) {
    boolean first = previous == null;
    long index = first ? 0 : previous.getIndex() + 1;
    long nonSpeculativeIndex = first ? 0 : previous.getNonSpeculativeIndex() + 1;
    boolean onlyEarlySoFar = first || previous.getTiming() == Timing.EARLY;
    boolean lateForOutput = outputWatermark != null && windowMaxTimestamp.isBefore(outputWatermark);
    Timing timing;
    if (lateForOutput || !onlyEarlySoFar) {
      timing = Timing.LATE;
    } else if (!inputWatermark.isAfter(windowMaxTimestamp)) {
      timing = Timing.EARLY;
      nonSpeculativeIndex = -1;
    } else {
      timing = Timing.ON_TIME;
    }
    return PaneInfo.createPane(first, last, timing, index, nonSpeculativeIndex);
  }

  /**
   * The current window's garbage-collection timer and, with allowed lateness, its end-of-window
   * timer unless the watermark passed it (without lateness both are one timer, as in runners-core
   * where they share id and time), in its state window's namespace: set anew or moved there from a
   * merged part.
   */
  private void setWindowTimers(BoundedWindow window, Instant inputWatermark) {
    Instant gcTime = LateDataUtils.garbageCollectionTime(window, strategy);
    setEventTimer(GARBAGE_COLLECTION_TIMER, gcTime);
    Instant endOfWindow = window.maxTimestamp();
    if (!endOfWindow.equals(gcTime)) {
      if (inputWatermark.isAfter(endOfWindow)) {
        timers.deleteTimer(
            contexts.stateNamespace(), END_OF_WINDOW_TIMER, "", TimeDomain.EVENT_TIME);
      } else {
        setEventTimer(END_OF_WINDOW_TIMER, endOfWindow);
      }
    }
  }

  private void setProcessingTimer(long millis) {
    Instant at = new Instant(millis);
    timers.setTimer(
        TimerData.of(
            contexts.namespace(), at, at, TimeDomain.PROCESSING_TIME, CausedByDrain.NORMAL));
  }

  private void setEventTimer(String id, Instant at) {
    timers.setTimer(
        TimerData.of(
            id, contexts.stateNamespace(), at, at, TimeDomain.EVENT_TIME, CausedByDrain.NORMAL));
  }
}
