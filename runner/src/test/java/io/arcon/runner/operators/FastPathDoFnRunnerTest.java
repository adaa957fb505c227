package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.DoFnRunners;
import org.apache.beam.runners.core.InMemoryStateInternals;
import org.apache.beam.runners.core.InMemoryTimerInternals;
import org.apache.beam.runners.core.NullSideInputReader;
import org.apache.beam.runners.core.SideInputReader;
import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.runners.core.TimerInternals;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerMap;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Runs DoFns through runners-core's {@code SimpleDoFnRunner} and through {@link
 * FastPathDoFnRunner}, each over its own in-memory state and timers, and compares everything they
 * did: every output with its tag, value, timestamp, windows, pane and record metadata, every timer
 * set or deleted with its namespace, times and domain, and every exception's type and message.
 */
class FastPathDoFnRunnerTest {
  private static final TupleTag<String> MAIN = new TupleTag<>("main");
  private static final TupleTag<String> SIDE = new TupleTag<>("side");
  private static final WindowingStrategy<?, ?> FIXED =
      WindowingStrategy.of(FixedWindows.of(Duration.millis(100)))
          .withAllowedLateness(Duration.millis(10));

  /** Outputs every way a DoFn can, in the element's windows, one window at a time. */
  static class Outputs extends DoFn<String, String> {
    @ProcessElement
    public void process(
        @Element String element,
        @Timestamp Instant timestamp,
        BoundedWindow window,
        PaneInfo pane,
        OutputReceiver<String> out,
        MultiOutputReceiver tagged,
        ProcessContext context) {
      out.output(element + " in " + window + " " + pane.getTiming());
      out.outputWithTimestamp(element + "+1", timestamp.plus(Duration.millis(1)));
      out.builder(element + " built").setTimestamp(timestamp.plus(Duration.millis(2))).output();
      out.outputWindowedValue(
          element + " windowed",
          timestamp,
          Collections.singletonList(GlobalWindow.INSTANCE),
          PaneInfo.ON_TIME_AND_ONLY_FIRING);
      tagged.get(SIDE).output(element + " tagged");
      tagged
          .get(SIDE)
          .outputWithTimestamp(element + " tagged+3", timestamp.plus(Duration.millis(3)));
      context.output(SIDE, element + " context");
      context.outputWithTimestamp(element + " context+4", timestamp.plus(Duration.millis(4)));
      context.outputWindowedValue(
          WindowedValues.of(element + " as value", timestamp, window, pane));
      out.output(
          context.element()
              + " "
              + context.timestamp()
              + " "
              + context.pane().getTiming()
              + " "
              + context.currentRecordId()
              + " "
              + context.currentRecordOffset()
              + " "
              + context.causedByDrain());
      if (element.startsWith("early")) {
        out.outputWithTimestamp(element, timestamp.minus(Duration.millis(1)));
      }
      if (element.startsWith("unknown")) {
        context.output(new TupleTag<String>("unknown"), element);
      }
      if (element.startsWith("side")) {
        context.sideInput((PCollectionView<String>) null);
      }
    }
  }

  /** Does not observe windows: runs once for an element in several windows. */
  static class NotObservingWindows extends DoFn<String, String> {
    @ProcessElement
    public void process(@Element String element, OutputReceiver<String> out) {
      out.output(element + "!");
      if (element.startsWith("fail")) {
        throw new IllegalStateException("user code failed on " + element);
      }
    }
  }

  /** State, an always-fetched bag and timers set every way, chosen by the element's value. */
  static class StateAndTimers extends DoFn<KV<String, Integer>, String> {
    @StateId("count")
    private final StateSpec<ValueState<Integer>> countSpec = StateSpecs.value(VarIntCoder.of());

    @StateId("seen")
    private final StateSpec<BagState<String>> seenSpec = StateSpecs.bag(StringUtf8Coder.of());

    @TimerId("event")
    private final TimerSpec eventSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @TimerId("processing")
    private final TimerSpec processingSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

    @ProcessElement
    public void process(
        @Element KV<String, Integer> element,
        @Timestamp Instant timestamp,
        BoundedWindow window,
        @StateId("count") ValueState<Integer> count,
        @AlwaysFetched @StateId("seen") BagState<String> seen,
        @TimerId("event") Timer event,
        @TimerId("processing") Timer processing,
        OutputReceiver<String> out) {
      Integer before = count.read();
      count.write(before == null ? 1 : before + 1);
      seen.add(element.getKey() + element.getValue());
      out.output(window + " count " + count.read() + " seen " + seen.read());
      out.output("event now " + event.getCurrentRelativeTime());
      out.output("processing now " + processing.getCurrentRelativeTime());
      switch (element.getValue()) {
        case 0:
          event.set(timestamp.plus(Duration.millis(10)));
          break;
        case 1:
          event.offset(Duration.millis(5)).setRelative();
          break;
        case 2:
          event.align(Duration.millis(7)).offset(Duration.millis(2)).setRelative();
          break;
        case 3:
          event.withOutputTimestamp(timestamp).set(timestamp.plus(Duration.millis(20)));
          break;
        case 4:
          event.withNoOutputTimestamp().set(timestamp.plus(Duration.millis(5)));
          break;
        case 5:
          processing.offset(Duration.millis(100)).setRelative();
          break;
        case 6:
          processing.align(Duration.millis(30)).setRelative();
          break;
        case 7:
          event.clear();
          processing.clear();
          break;
        case 8:
          event.withOutputTimestamp(timestamp.minus(Duration.millis(1))).set(timestamp);
          break;
        case 9:
          event.set(window.maxTimestamp().plus(Duration.millis(11)));
          break;
        case 10:
          event.set(timestamp.plus(Duration.millis(1)));
          event.set(timestamp.plus(Duration.millis(3)));
          break;
        case 11:
          event.offset(Duration.millis(1000)).setRelative();
          break;
        case 12:
          event.withNoOutputTimestamp().set(timestamp.plus(Duration.millis(5)));
          event.set(timestamp.plus(Duration.millis(6)));
          break;
        case 13:
          processing
              .withOutputTimestamp(window.maxTimestamp().plus(Duration.millis(50)))
              .set(timestamp);
          break;
        default:
          break;
      }
    }

    @OnTimer("event")
    public void onEvent(OutputReceiver<String> out) {
      out.output("event fired");
    }

    @OnTimer("processing")
    public void onProcessing(OutputReceiver<String> out) {
      out.output("processing fired");
    }
  }

  /** Takes a timer family, which the fast path does not provide. */
  static class UsesTimerFamily extends DoFn<KV<String, Integer>, String> {
    @TimerFamily("family")
    private final TimerSpec familySpec = TimerSpecs.timerMap(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(@Element KV<String, Integer> e, @TimerFamily("family") TimerMap timers) {}

    @OnTimerFamily("family")
    public void onFamily() {}
  }

  private static final PCollectionView<String> VIEW =
      Pipeline.create().apply(Create.of("side")).apply(View.asSingleton());

  /** Reads a side input as a parameter and through its context, and an unknown view. */
  static class ReadsSideInput extends DoFn<String, String> {
    @ProcessElement
    public void process(
        @Element String element,
        @SideInput("view") String byTag,
        ProcessContext context,
        OutputReceiver<String> out) {
      out.output(element + " " + byTag + " " + context.sideInput(VIEW));
      if (element.startsWith("unknown")) {
        context.sideInput(
            Pipeline.create().apply(Create.of("other")).apply(View.<String>asSingleton()));
      }
    }
  }

  /**
   * Reads its side input only through the context, so its signature does not observe windows; with
   * side inputs runners-core explodes windows all the same.
   */
  static class ReadsSideInputThroughContext extends DoFn<String, String> {
    @ProcessElement
    public void process(ProcessContext context) {
      context.output(context.element() + " " + context.sideInput(VIEW));
    }
  }

  /** Side-input values by view and side-input window. */
  private static final class WindowedSideInputs implements SideInputReader {
    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(PCollectionView<T> view, BoundedWindow window) {
      return (T) (view.getTagInternal().getId() + " in " + window);
    }

    @Override
    public <T> boolean contains(PCollectionView<T> view) {
      return view == VIEW;
    }

    @Override
    public boolean isEmpty() {
      return false;
    }
  }

  static class OutputsRows extends DoFn<String, String> {
    @ProcessElement
    public void process(@Element String e, OutputReceiver<org.apache.beam.sdk.values.Row> rows) {}
  }

  @Test
  void outputsMatchRunnersCore() throws Exception {
    List<WindowedValue<String>> input =
        List.of(
            WindowedValues.of(
                "a",
                new Instant(150),
                List.of(window(100), window(200)),
                PaneInfo.NO_FIRING,
                "record-1",
                7L,
                CausedByDrain.NORMAL),
            WindowedValues.of("b", new Instant(5), window(0), PaneInfo.ON_TIME_AND_ONLY_FIRING),
            WindowedValues.of(
                "d",
                new Instant(60),
                List.of(window(0)),
                PaneInfo.NO_FIRING,
                "record-2",
                8L,
                CausedByDrain.CAUSED_BY_DRAIN),
            WindowedValues.of("early", new Instant(250), window(200), PaneInfo.NO_FIRING),
            WindowedValues.of("unknown", new Instant(250), window(200), PaneInfo.NO_FIRING),
            WindowedValues.of("side", new Instant(250), window(200), PaneInfo.NO_FIRING),
            WindowedValues.valueInGlobalWindow("c"));
    List<String> simple = run(new Outputs(), input, false, FIXED);
    List<String> fast = run(new Outputs(), input, true, FIXED);
    assertSameLog(simple, fast);
    assertTrue(
        simple.stream().anyMatch(s -> s.contains("Cannot output with timestamp")),
        () -> simple.size() + " log lines");
    assertTrue(
        simple.stream().anyMatch(s -> s.endsWith("record-2 8 CAUSED_BY_DRAIN")),
        () -> simple.size() + " log lines");
  }

  @Test
  void anElementInSeveralWindowsRunsOnceWhenTheDoFnDoesNotObserveWindows() throws Exception {
    List<WindowedValue<String>> input =
        List.of(
            WindowedValues.of(
                "x", new Instant(150), List.of(window(100), window(200)), PaneInfo.NO_FIRING),
            WindowedValues.of("fail", new Instant(1), window(0), PaneInfo.NO_FIRING));
    List<String> simple = run(new NotObservingWindows(), input, false, FIXED);
    assertSameLog(simple, run(new NotObservingWindows(), input, true, FIXED));
    assertEquals(
        1,
        simple.stream().filter(s -> s.contains("x!")).count(),
        () -> simple.size() + " log lines");
    assertTrue(
        simple.stream().anyMatch(s -> s.contains("UserCodeException")),
        () -> simple.size() + " log lines");
  }

  @Test
  void stateAndTimersMatchRunnersCore() throws Exception {
    List<WindowedValue<KV<String, Integer>>> input = new ArrayList<>();
    for (int value = 0; value <= 14; value++) {
      input.add(
          WindowedValues.of(
              KV.of("k", value), new Instant(120 + value), window(100), PaneInfo.NO_FIRING));
    }
    List<String> simple = run(new StateAndTimers(), input, false, FIXED);
    List<String> fast = run(new StateAndTimers(), input, true, FIXED);
    assertSameLog(simple, fast);
    assertTrue(
        simple.stream().anyMatch(s -> s.startsWith("setTimer")),
        () -> simple.size() + " log lines");
    assertTrue(
        simple.stream().anyMatch(s -> s.startsWith("deleteTimer")),
        () -> simple.size() + " log lines");
    assertTrue(
        simple.stream().filter(s -> s.contains("IllegalArgumentException")).count() >= 3,
        () -> simple.size() + " log lines");

    List<WindowedValue<KV<String, Integer>>> global = new ArrayList<>();
    for (int value = 0; value <= 14; value++) {
      global.add(
          WindowedValues.timestampedValueInGlobalWindow(KV.of("g", value), new Instant(value)));
    }
    WindowingStrategy<?, ?> globalStrategy = WindowingStrategy.globalDefault();
    assertSameLog(
        run(new StateAndTimers(), global, false, globalStrategy),
        run(new StateAndTimers(), global, true, globalStrategy));
  }

  @Test
  void sideInputsMatchRunnersCore() throws Exception {
    // Several windows: runners-core explodes them for side inputs even if the DoFn does not
    // observe windows; the view's window comes from its window mapping (global here).
    List<WindowedValue<String>> input =
        List.of(
            WindowedValues.of(
                "x", new Instant(150), List.of(window(100), window(200)), PaneInfo.NO_FIRING),
            WindowedValues.of("unknown", new Instant(5), window(0), PaneInfo.NO_FIRING));
    Map<String, PCollectionView<?>> mapping = Map.of("view", VIEW);
    List<String> simple =
        run(new ReadsSideInput(), input, false, FIXED, new WindowedSideInputs(), mapping);
    assertSameLog(
        simple, run(new ReadsSideInput(), input, true, FIXED, new WindowedSideInputs(), mapping));
    assertEquals(
        2, simple.stream().filter(s -> s.startsWith("output main x")).count(), simple::toString);
    assertTrue(
        simple.stream().anyMatch(s -> s.contains("calling sideInput() with unknown view")),
        simple::toString);

    List<String> throughContext =
        run(
            new ReadsSideInputThroughContext(),
            input,
            false,
            FIXED,
            new WindowedSideInputs(),
            mapping);
    assertSameLog(
        throughContext,
        run(
            new ReadsSideInputThroughContext(),
            input,
            true,
            FIXED,
            new WindowedSideInputs(),
            mapping));
    assertEquals(
        2,
        throughContext.stream().filter(s -> s.startsWith("output main x")).count(),
        throughContext::toString);
  }

  @Test
  void takesOnlyDoFnsWhoseParametersItProvides() {
    assertTrue(FastPathDoFnRunner.supports(new Outputs()));
    assertTrue(FastPathDoFnRunner.supports(new StateAndTimers()));
    assertTrue(FastPathDoFnRunner.supports(new ReadsSideInput()));
    assertFalse(FastPathDoFnRunner.supports(new UsesTimerFamily()));
    assertFalse(FastPathDoFnRunner.supports(new OutputsRows()));
  }

  @Test
  void theComparisonSeesADifferentTimer() throws Exception {
    // The log the comparisons rely on tells timers apart by their times.
    List<WindowedValue<KV<String, Integer>>> zero =
        List.of(
            WindowedValues.of(KV.of("k", 0), new Instant(120), window(100), PaneInfo.NO_FIRING));
    List<WindowedValue<KV<String, Integer>>> three =
        List.of(
            WindowedValues.of(KV.of("k", 3), new Instant(120), window(100), PaneInfo.NO_FIRING));
    assertNotEquals(
        run(new StateAndTimers(), zero, true, FIXED),
        run(new StateAndTimers(), three, true, FIXED));
  }

  /** Equal logs, or the first line where they part. */
  private static void assertSameLog(List<String> expected, List<String> actual) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      assertEquals(expected.get(i), actual.get(i), "log line " + i);
    }
    assertEquals(expected.size(), actual.size(), "log length");
  }

  private static IntervalWindow window(long start) {
    return new IntervalWindow(new Instant(start), new Instant(start + 100));
  }

  /** Everything the runner did for {@code input}, in order. */
  private static <InT> List<String> run(
      DoFn<InT, String> fn,
      List<WindowedValue<InT>> input,
      boolean fastPath,
      WindowingStrategy<?, ?> windowing)
      throws Exception {
    return run(fn, input, fastPath, windowing, NullSideInputReader.empty(), Map.of());
  }

  private static <InT> List<String> run(
      DoFn<InT, String> fn,
      List<WindowedValue<InT>> input,
      boolean fastPath,
      WindowingStrategy<?, ?> windowing,
      SideInputReader sideInputs,
      Map<String, PCollectionView<?>> sideInputMapping)
      throws Exception {
    List<String> log = new ArrayList<>();
    RecordingTimers timers = new RecordingTimers(log);
    timers.advanceInputWatermark(new Instant(103));
    timers.advanceProcessingTime(new Instant(1_000_017));
    StateInternals state = InMemoryStateInternals.forKey("k");
    StepContext step =
        new StepContext() {
          @Override
          public StateInternals stateInternals() {
            return state;
          }

          @Override
          public TimerInternals timerInternals() {
            return timers;
          }
        };
    WindowedValueMultiReceiver outputs =
        new WindowedValueMultiReceiver() {
          @Override
          public <T> void output(TupleTag<T> tag, WindowedValue<T> value) {
            log.add(
                "output "
                    + tag.getId()
                    + " "
                    + value.getValue()
                    + " @"
                    + value.getTimestamp()
                    + " "
                    + value.getWindows()
                    + " "
                    + value.getPaneInfo()
                    + " "
                    + value.getRecordId()
                    + " "
                    + value.getRecordOffset()
                    + " "
                    + value.causedByDrain());
          }
        };
    DoFnRunner<InT, String> runner =
        DoFnRunners.simpleRunner(
            PipelineOptionsFactory.create(),
            fn,
            sideInputs,
            outputs,
            MAIN,
            List.of(SIDE),
            step,
            null,
            Map.of(),
            windowing,
            DoFnSchemaInformation.create(),
            sideInputMapping);
    if (fastPath) {
      runner =
          new FastPathDoFnRunner<>(
              runner,
              PipelineOptionsFactory.create(),
              fn,
              outputs,
              MAIN,
              List.of(SIDE),
              step,
              sideInputs,
              sideInputMapping,
              Map.of(),
              windowing);
    }
    runner.startBundle();
    for (WindowedValue<InT> element : input) {
      try {
        runner.processElement(element);
      } catch (RuntimeException e) {
        Throwable cause = e;
        StringBuilder chain = new StringBuilder("failed");
        while (cause != null) {
          chain
              .append(" ")
              .append(cause.getClass().getSimpleName())
              .append(": ")
              .append(cause.getMessage());
          cause = cause.getCause();
        }
        log.add(chain.toString());
      }
    }
    runner.finishBundle();
    return log;
  }

  /** In-memory timers that log every set and delete. */
  private static final class RecordingTimers extends InMemoryTimerInternals {
    private final List<String> log;

    RecordingTimers(List<String> log) {
      this.log = log;
    }

    @Override
    public void setTimer(
        StateNamespace namespace,
        String timerId,
        String timerFamilyId,
        Instant target,
        Instant outputTimestamp,
        TimeDomain timeDomain) {
      log.add(
          "setTimer "
              + namespace.stringKey()
              + " "
              + timerId
              + " '"
              + timerFamilyId
              + "' "
              + target
              + " "
              + outputTimestamp
              + " "
              + timeDomain);
      super.setTimer(namespace, timerId, timerFamilyId, target, outputTimestamp, timeDomain);
    }

    @Override
    public void deleteTimer(
        StateNamespace namespace, String timerId, String timerFamilyId, TimeDomain timeDomain) {
      log.add("deleteTimer " + namespace.stringKey() + " " + timerId + " " + timeDomain);
      super.deleteTimer(namespace, timerId, timerFamilyId, timeDomain);
    }
  }
}
