package io.arcon.runner.operators;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.KeyedTimerInternals;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.beam.runners.core.MergingStateAccessor;
import org.apache.beam.runners.core.ReduceFn;
import org.apache.beam.runners.core.StateAccessor;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.State;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timers;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.UserCodeException;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;

/**
 * Calls a transform's {@link SystemReduceFn} (a bag, or a combine's accumulator) for the window
 * {@link WatermarkTriggerGroupByKeyOperator} works on: one reusable context per kind of call, over
 * the fields {@link #enter} sets, with the values in the namespace of the window's state window.
 */
final class ReduceFnContexts<K, InT, OutT> {
  private final SystemReduceFn<K, InT, ?, OutT, BoundedWindow> reduceFn;
  private final WindowingStrategy<?, BoundedWindow> strategy;
  private final Coder<BoundedWindow> windowCoder;
  private final BackendStateInternals<K> state;
  private final KeyedTimerInternals timers;
  private final StateAccessor<K> accessor;
  private final Timers windowTimers;
  private final ReduceFn<K, InT, OutT, BoundedWindow>.ProcessValueContext valueContext;
  private final ReduceFn<K, InT, OutT, BoundedWindow>.OnTriggerContext triggerContext;

  private K key;
  private BoundedWindow window;
  private StateNamespace namespace;
  private StateNamespace stateNamespace;
  private WindowedValue<KV<K, InT>> value;
  private PaneInfo pane;

  ReduceFnContexts(
      SystemReduceFn<K, InT, ?, OutT, BoundedWindow> reduceFn,
      WindowingStrategy<?, BoundedWindow> strategy,
      Coder<BoundedWindow> windowCoder,
      BackendStateInternals<K> state,
      KeyedTimerInternals timers,
      Consumer<OutT> paneOutput) {
    this.reduceFn = reduceFn;
    this.strategy = strategy;
    this.windowCoder = windowCoder;
    this.state = state;
    this.timers = timers;
    this.accessor =
        new StateAccessor<>() {
          @Override
          public <StateT extends State> StateT access(StateTag<StateT> address) {
            return state.state(stateNamespace, address);
          }
        };
    this.windowTimers = new WindowTimers();
    this.valueContext =
        reduceFn.new ProcessValueContext() {
          @Override
          public K key() {
            return key;
          }

          @Override
          public BoundedWindow window() {
            return window;
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
            return value.getValue().getValue();
          }

          @Override
          public CausedByDrain causedByDrain() {
            return value.causedByDrain();
          }

          @Override
          public Instant timestamp() {
            return value.getTimestamp();
          }
        };
    this.triggerContext =
        reduceFn.new OnTriggerContext() {
          @Override
          public K key() {
            return key;
          }

          @Override
          public BoundedWindow window() {
            return window;
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
            return pane;
          }

          @Override
          public CausedByDrain causedByDrain() {
            return CausedByDrain.NORMAL;
          }

          @Override
          public void output(OutT output) {
            paneOutput.accept(output);
          }
        };
  }

  /**
   * Works on {@code window} of {@code key} from now on, its values in {@code stateWindow}'s
   * namespace (the window itself, or the part of a merged window that kept them).
   */
  void enter(K key, BoundedWindow window, BoundedWindow stateWindow) {
    this.key = key;
    this.window = window;
    this.namespace = StateNamespaces.window(windowCoder, window);
    this.stateNamespace =
        stateWindow.equals(window) ? namespace : StateNamespaces.window(windowCoder, stateWindow);
  }

  K key() {
    return key;
  }

  BoundedWindow window() {
    return window;
  }

  /** The current window's own namespace: its processing-time timers. */
  StateNamespace namespace() {
    return namespace;
  }

  /** The current window's state window's namespace: its values, pane state and window timers. */
  StateNamespace stateNamespace() {
    return stateNamespace;
  }

  /** The reduce function's processValue: {@code element} joins the current window's values. */
  void addValue(WindowedValue<KV<K, InT>> element) {
    this.value = element;
    try {
      reduceFn.processValue(valueContext);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
  }

  /** The reduce function's onTrigger: outputs the current window's values as {@code paneInfo}. */
  void outputPane(PaneInfo paneInfo) {
    this.pane = paneInfo;
    try {
      reduceFn.onTrigger(triggerContext);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
  }

  /** The pane being output. */
  PaneInfo pane() {
    return pane;
  }

  /** The reduce function's clearState: the current window's values are dropped. */
  void clearValues() {
    try {
      reduceFn.clearState(valueContext);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
  }

  /** The reduce function's onMerge: the values in {@code sources}' namespaces join the current. */
  void mergeValues(List<BoundedWindow> sources) {
    MergingStateAccessor<K, BoundedWindow> merging =
        new MergingStateAccessor<>() {
          @Override
          public <StateT extends State> StateT access(StateTag<StateT> address) {
            return state.state(stateNamespace, address);
          }

          @Override
          public <StateT extends State> Map<BoundedWindow, StateT> accessInEachMergingWindow(
              StateTag<StateT> address) {
            Map<BoundedWindow, StateT> each = new LinkedHashMap<>();
            for (BoundedWindow source : sources) {
              each.put(source, state.state(StateNamespaces.window(windowCoder, source), address));
            }
            return each;
          }
        };
    ReduceFn<K, InT, OutT, BoundedWindow>.OnMergeContext context =
        reduceFn.new OnMergeContext() {
          @Override
          public K key() {
            return key;
          }

          @Override
          public BoundedWindow window() {
            return window;
          }

          @Override
          public WindowingStrategy<?, BoundedWindow> windowingStrategy() {
            return strategy;
          }

          @Override
          public MergingStateAccessor<K, BoundedWindow> state() {
            return merging;
          }

          @Override
          public Timers timers() {
            return windowTimers;
          }
        };
    try {
      reduceFn.onMerge(context);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!(e instanceof RuntimeException), e);
    }
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
          TimerData.of(namespace, timestamp, outputTimestamp, timeDomain, CausedByDrain.NORMAL));
    }

    @Override
    public void deleteTimer(Instant timestamp, TimeDomain timeDomain) {
      timers.deleteTimer(
          TimerData.of(namespace, timestamp, timestamp, timeDomain, CausedByDrain.NORMAL));
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
