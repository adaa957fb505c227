package io.arcon.runner.operators;

import io.arcon.runner.state.WindowHash;
import java.lang.reflect.Field;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.SideInputReader;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StateTag;
import org.apache.beam.runners.core.StateTags;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.State;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.apache.beam.sdk.transforms.DoFn.MultiOutputReceiver;
import org.apache.beam.sdk.transforms.DoFn.OutputReceiver;
import org.apache.beam.sdk.transforms.DoFnOutputReceivers;
import org.apache.beam.sdk.transforms.reflect.DoFnInvoker;
import org.apache.beam.sdk.transforms.reflect.DoFnInvokers;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature.Parameter;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.OutputBuilderSuppliers;
import org.apache.beam.sdk.util.SystemDoFnInternal;
import org.apache.beam.sdk.util.UserCodeException;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.OutputBuilder;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.joda.time.format.PeriodFormat;

/**
 * Runs a DoFn's {@code @ProcessElement} with the semantics of runners-core's {@code
 * SimpleDoFnRunner}, for the DoFns whose parameters it knows ({@link #supports}); bundles, timers
 * and window expiry go to the {@code SimpleDoFnRunner} it wraps.
 *
 * <p>Why: profiles of per-element state showed a sixth of a stateful DoFn's time in that runner's
 * per-element lookups, not in the DoFn. For every element it looks up each {@code @StateId} and
 * {@code @TimerId} by name in the signature's maps, reads the DoFn's spec field by reflection,
 * builds a new state tag, namespace and timer, allocates a process context, an output builder
 * supplier and an output receiver, and checks every output's tag against a hash set. Here the specs
 * and tags are resolved once, the namespace is kept while the window stays the same, the argument
 * provider and the main output's receiver are reused (a new one only if the DoFn is re-entered),
 * and an output at the element's own timestamp skips the timestamp check it cannot fail.
 *
 * <p>What the DoFn sees is the same: the outputs (values, timestamps, windows, panes and the
 * element's record id, offset and drain flag), the timestamp-skew and timer checks with their
 * messages, timers' output timestamps and window expiry, and exceptions wrapped as {@link
 * UserCodeException} unless the DoFn is a system DoFn. {@code FastPathDoFnRunnerTest} runs DoFns
 * through both runners and compares what they did.
 */
final class FastPathDoFnRunner<InT, OutT> implements DoFnRunner<InT, OutT> {

  /** The {@code @ProcessElement} parameters this runner provides; any other goes the slow path. */
  private static final Set<Class<?>> SUPPORTED_PARAMETERS =
      Set.of(
          Parameter.PipelineOptionsParameter.class,
          Parameter.ProcessContextParameter.class,
          Parameter.ElementParameter.class,
          Parameter.TimestampParameter.class,
          Parameter.WindowParameter.class,
          Parameter.PaneInfoParameter.class,
          Parameter.CausedByDrainParameter.class,
          Parameter.OutputReceiverParameter.class,
          Parameter.TaggedOutputReceiverParameter.class,
          Parameter.BundleFinalizerParameter.class,
          Parameter.SideInputParameter.class,
          Parameter.StateParameter.class,
          Parameter.TimerParameter.class);

  private final DoFnRunner<InT, OutT> slowPath;
  private final DoFn<InT, OutT> fn;
  private final DoFnInvoker<InT, OutT> invoker;
  private final PipelineOptions options;
  private final WindowedValueMultiReceiver outputManager;
  private final TupleTag<OutT> mainOutputTag;
  private final Set<TupleTag<?>> outputTags;
  private final Map<TupleTag<?>, Coder<?>> outputCoders;
  private final StepContext stepContext;
  private final SideInputReader sideInputReader;
  private final Map<String, PCollectionView<?>> sideInputMapping;
  private final Coder<BoundedWindow> windowCoder;
  private final Duration allowedLateness;
  private final boolean observesWindow;
  private final boolean systemDoFn;

  /** State and timer ids with their tags and specs, in declaration order (a few; scanned). */
  private final String[] stateIds;

  private final StateTag<?>[] stateTags;
  private final String[] timerIds;
  private final TimerSpec[] timerSpecs;

  /** The provider for the next element; null while it is in use by an element. */
  private Arguments idle;

  /** Whether {@code fn}'s {@code @ProcessElement} takes only parameters this runner provides. */
  static boolean supports(DoFn<?, ?> fn) {
    DoFnSignature.ProcessElementMethod method =
        DoFnSignatures.getSignature(fn.getClass()).processElement();
    for (Parameter parameter : method.extraParameters()) {
      if (SUPPORTED_PARAMETERS.stream().noneMatch(kind -> kind.isInstance(parameter))) {
        return false;
      }
      if (parameter instanceof Parameter.OutputReceiverParameter
          && ((Parameter.OutputReceiverParameter) parameter).isRowReceiver()) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param slowPath runners-core's runner of the same DoFn, outputs and step: it runs bundles,
   *     timers and window expiry
   */
  @SuppressWarnings("unchecked")
  FastPathDoFnRunner(
      DoFnRunner<InT, OutT> slowPath,
      PipelineOptions options,
      DoFn<InT, OutT> fn,
      WindowedValueMultiReceiver outputManager,
      TupleTag<OutT> mainOutputTag,
      List<TupleTag<?>> additionalOutputTags,
      StepContext stepContext,
      SideInputReader sideInputReader,
      Map<String, PCollectionView<?>> sideInputMapping,
      Map<TupleTag<?>, Coder<?>> outputCoders,
      WindowingStrategy<?, ?> windowingStrategy) {
    this.slowPath = slowPath;
    this.options = options;
    this.fn = fn;
    this.invoker = DoFnInvokers.invokerFor(fn);
    this.outputManager = outputManager;
    this.mainOutputTag = mainOutputTag;
    this.outputTags = new HashSet<>(additionalOutputTags);
    this.outputTags.add(mainOutputTag);
    this.outputCoders = outputCoders;
    this.stepContext = stepContext;
    this.sideInputReader = sideInputReader;
    this.sideInputMapping = sideInputMapping;
    this.windowCoder = (Coder<BoundedWindow>) windowingStrategy.getWindowFn().windowCoder();
    this.allowedLateness = windowingStrategy.getAllowedLateness();
    DoFnSignature signature = DoFnSignatures.getSignature(fn.getClass());
    // As runners-core: side inputs are read in the element's one window.
    this.observesWindow = signature.processElement().observesWindow() || !sideInputReader.isEmpty();
    // As runners-core decides it: by the invoker's class.
    this.systemDoFn = invoker.getClass().isAnnotationPresent(SystemDoFnInternal.class);

    Map<String, DoFnSignature.StateDeclaration> states = signature.stateDeclarations();
    this.stateIds = states.keySet().toArray(new String[0]);
    this.stateTags = new StateTag<?>[stateIds.length];
    for (int i = 0; i < stateIds.length; i++) {
      StateSpec<?> spec = (StateSpec<?>) specField(states.get(stateIds[i]).field(), stateIds[i]);
      stateTags[i] = StateTags.tagForSpec(stateIds[i], spec);
    }
    Map<String, DoFnSignature.TimerDeclaration> timers = signature.timerDeclarations();
    this.timerIds = timers.keySet().toArray(new String[0]);
    this.timerSpecs = new TimerSpec[timerIds.length];
    for (int i = 0; i < timerIds.length; i++) {
      timerSpecs[i] = (TimerSpec) specField(timers.get(timerIds[i]).field(), timerIds[i]);
    }
    this.idle = new Arguments();
  }

  private Object specField(Field field, String id) {
    try {
      Object spec = field.get(fn);
      if (spec == null) {
        throw new IllegalStateException(
            "Field " + field + " corresponding to state or timer id " + id + " contained null");
      }
      return spec;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot read " + field + " of " + fn.getClass(), e);
    }
  }

  @Override
  public DoFn<InT, OutT> getFn() {
    return fn;
  }

  @Override
  public void startBundle() {
    slowPath.startBundle();
  }

  @Override
  public void processElement(WindowedValue<InT> element) {
    if (observesWindow && element.getWindows().size() != 1) {
      for (WindowedValue<InT> inOneWindow : element.explodeWindows()) {
        invokeProcessElement(inOneWindow);
      }
    } else {
      invokeProcessElement(element);
    }
  }

  private void invokeProcessElement(WindowedValue<InT> element) {
    Arguments arguments = idle != null ? idle : new Arguments();
    idle = null;
    arguments.element = element;
    try {
      invoker.invokeProcessElement(arguments);
    } catch (Exception e) {
      throw UserCodeException.wrapIf(!systemDoFn, e);
    } finally {
      arguments.release();
      idle = arguments;
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
    slowPath.onTimer(
        timerId, timerFamilyId, key, window, timestamp, outputTimestamp, timeDomain, causedByDrain);
  }

  @Override
  public void finishBundle() {
    slowPath.finishBundle();
  }

  @Override
  public <KeyT> void onWindowExpiration(BoundedWindow window, Instant timestamp, KeyT key) {
    slowPath.onWindowExpiration(window, timestamp, key);
  }

  private <T> void emit(TupleTag<T> tag, WindowedValue<T> value) {
    if (tag != mainOutputTag && !outputTags.contains(tag)) {
      throw new IllegalArgumentException("Unknown output tag " + tag);
    }
    outputManager.output(tag, value);
  }

  private void checkTimestamp(Instant elementTimestamp, Instant timestamp) {
    checkOutputTimestamp(fn, elementTimestamp, timestamp, "output with timestamp");
  }

  /**
   * Fails, with runners-core's message, when {@code timestamp} is earlier than the element's
   * timestamp minus the DoFn's allowed skew or past the end of time.
   *
   * @param what what the DoFn tried ("output with timestamp", "output timer with output timestamp")
   */
  @SuppressWarnings("deprecation") // the allowed skew is deprecated for users but still holds
  static void checkOutputTimestamp(
      DoFn<?, ?> fn, Instant elementTimestamp, Instant timestamp, String what) {
    Instant lowerBound;
    try {
      lowerBound = elementTimestamp.minus(fn.getAllowedTimestampSkew());
    } catch (ArithmeticException e) {
      lowerBound = BoundedWindow.TIMESTAMP_MIN_VALUE;
    }
    if (timestamp.isBefore(lowerBound) || timestamp.isAfter(BoundedWindow.TIMESTAMP_MAX_VALUE)) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot %s %s. Output timestamps must be no earlier than the timestamp of the"
                  + " current input or timer (%s) minus the allowed skew (%s) and no later than"
                  + " %s. See the DoFn#getAllowedTimestampSkew() Javadoc for details on changing"
                  + " the allowed skew.",
              what, timestamp, elementTimestamp, skewText(fn), BoundedWindow.TIMESTAMP_MAX_VALUE));
    }
  }

  /** The allowed skew as runners-core prints it in its messages. */
  @SuppressWarnings("deprecation")
  private static String skewText(DoFn<?, ?> fn) {
    Duration skew = fn.getAllowedTimestampSkew();
    return skew.getMillis() >= Integer.MAX_VALUE
        ? skew.toString()
        : PeriodFormat.getDefault().print(skew.toPeriod());
  }

  /**
   * The arguments of one {@code @ProcessElement} call: the element, its window and namespace, its
   * process context and main-output receiver. Reused from element to element.
   */
  private final class Arguments extends DoFnInvoker.BaseArgumentProvider<InT, OutT> {
    private WindowedValue<InT> element;
    private BoundedWindow window;

    /** The namespace of {@link #namespaceWindow}; kept across elements in the same window. */
    private StateNamespace namespace;

    private BoundedWindow namespaceWindow;

    private final Context context = new Context();
    private final MainOutput mainOutput = new MainOutput();

    /** Each timer id's parameter object, reused from call to call. */
    private final ProcessElementTimer[] timers = new ProcessElementTimer[timerIds.length];

    /** Bit i: timer {@code i} was handed to the current call. */
    private int timersInUse;

    /**
     * The side-input window the last side-input read mapped its view and main window to: elements
     * in a row mostly share both, and a window mapping (a {@code FixedWindows} assignment) is not
     * free. A mapping function is a function of the main window alone.
     */
    private PCollectionView<?> lastSideInputView;

    private BoundedWindow lastMainWindow;
    private BoundedWindow lastSideWindow;

    void release() {
      element = null;
      window = null;
      timersInUse = 0;
    }

    @Override
    public String getErrorContext() {
      return "FastPathDoFnRunner/ProcessElement";
    }

    @Override
    public BoundedWindow window() {
      if (window == null) {
        window = onlyWindow(element.getWindows());
      }
      return window;
    }

    /**
     * {@code value} in the current element's timestamp, windows and pane, as {@link
     * WindowedValues#withValue}. That walks the element's windows again for each output (an
     * iterator per output, a few per element in a pipeline of simple maps); an element in one
     * window, nearly all, reuses the window this call already found.
     */
    <T> WindowedValue<T> withSameWindows(T value) {
      WindowedValue<InT> in = element;
      if (in.getWindows().size() != 1) {
        return WindowedValues.withValue(in, value);
      }
      return WindowedValues.of(
          value,
          in.getTimestamp(),
          window(),
          in.getPaneInfo(),
          in.getRecordId(),
          in.getRecordOffset(),
          in.causedByDrain());
    }

    private StateNamespace namespace() {
      BoundedWindow current = window();
      if (!WindowHash.same(current, namespaceWindow)) {
        namespace = StateNamespaces.window(windowCoder, current);
        namespaceWindow = current;
      }
      return namespace;
    }

    @Override
    public PaneInfo paneInfo(DoFn<InT, OutT> doFn) {
      return element.getPaneInfo();
    }

    @Override
    public PipelineOptions pipelineOptions() {
      return options;
    }

    @Override
    public DoFn<InT, OutT>.ProcessContext processContext(DoFn<InT, OutT> doFn) {
      return context;
    }

    @Override
    public InT element(DoFn<InT, OutT> doFn) {
      return element.getValue();
    }

    @Override
    public Instant timestamp(DoFn<InT, OutT> doFn) {
      return element.getTimestamp();
    }

    @Override
    public CausedByDrain causedByDrain(DoFn<InT, OutT> doFn) {
      return element.causedByDrain();
    }

    @Override
    public OutputReceiver<OutT> outputReceiver(DoFn<InT, OutT> doFn) {
      return mainOutput;
    }

    @Override
    public MultiOutputReceiver taggedOutputReceiver(DoFn<InT, OutT> doFn) {
      return DoFnOutputReceivers.windowedMultiReceiver(
          context, OutputBuilderSuppliers.supplierForElement(element), outputCoders);
    }

    @Override
    public BundleFinalizer bundleFinalizer() {
      return stepContext.bundleFinalizer();
    }

    @Override
    public Object sideInput(String tagId) {
      PCollectionView<?> view = sideInputMapping.get(tagId);
      if (view == null) {
        throw new IllegalStateException("Side input tag " + tagId + " not found");
      }
      return sideInput(view);
    }

    /** The view's value in the side-input window of the element's one window. */
    <T> T sideInput(PCollectionView<T> view) {
      BoundedWindow mainWindow = window();
      if (view != lastSideInputView || !WindowHash.same(mainWindow, lastMainWindow)) {
        if (!sideInputReader.contains(view)) {
          throw new IllegalArgumentException("calling sideInput() with unknown view");
        }
        lastSideWindow = view.getWindowMappingFn().getSideInputWindow(mainWindow);
        lastSideInputView = view;
        lastMainWindow = mainWindow;
      }
      return sideInputReader.get(view, lastSideWindow);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public State state(String stateId, boolean alwaysFetched) {
      StateTag tag = stateTags[indexOf(stateIds, stateId, "state")];
      State state = stepContext.stateInternals().state(namespace(), tag);
      return alwaysFetched ? (State) ((ReadableState<?>) state).readLater() : state;
    }

    @Override
    public Timer timer(String timerId) {
      int index = indexOf(timerIds, timerId, "timer");
      ProcessElementTimer timer;
      if (index < Integer.SIZE && (timersInUse & (1 << index)) == 0) {
        timersInUse |= 1 << index;
        timer = timers[index];
        if (timer == null) {
          timer = newTimer(index);
          timers[index] = timer;
        }
      } else {
        // The same timer twice in one call: each parameter gets its own, as in runners-core.
        timer = newTimer(index);
      }
      return timer.forElement(window(), namespace(), element.getTimestamp());
    }

    private ProcessElementTimer newTimer(int index) {
      return new ProcessElementTimer(
          fn,
          timerIds[index],
          timerSpecs[index].getTimeDomain(),
          allowedLateness,
          stepContext.timerInternals());
    }

    /** The process context: outputs as runners-core's, relative to this element. */
    private final class Context extends DoFn<InT, OutT>.ProcessContext {
      Context() {
        fn.super();
      }

      @Override
      public PipelineOptions getPipelineOptions() {
        return options;
      }

      @Override
      public InT element() {
        return element.getValue();
      }

      @Override
      public <T> T sideInput(PCollectionView<T> view) {
        if (view == null) {
          throw new NullPointerException("View passed to sideInput cannot be null");
        }
        return Arguments.this.sideInput(view);
      }

      @Override
      public Instant timestamp() {
        return element.getTimestamp();
      }

      @Override
      public PaneInfo pane() {
        return element.getPaneInfo();
      }

      @Override
      public String currentRecordId() {
        return element.getRecordId();
      }

      @Override
      public Long currentRecordOffset() {
        return element.getRecordOffset();
      }

      @Override
      public CausedByDrain causedByDrain() {
        return element.causedByDrain();
      }

      @Override
      public void output(OutT output) {
        emit(mainOutputTag, withSameWindows(output));
      }

      @Override
      public void outputWithTimestamp(OutT output, Instant timestamp) {
        outputWithTimestamp(mainOutputTag, output, timestamp);
      }

      @Override
      public void outputWindowedValue(
          OutT output,
          Instant timestamp,
          Collection<? extends BoundedWindow> windows,
          PaneInfo paneInfo) {
        outputWindowedValue(mainOutputTag, output, timestamp, windows, paneInfo);
      }

      @Override
      public <T> void output(TupleTag<T> tag, T output) {
        if (tag == null) {
          throw new NullPointerException("Tag passed to output cannot be null");
        }
        emit(tag, withSameWindows(output));
      }

      @Override
      public <T> void outputWithTimestamp(TupleTag<T> tag, T output, Instant timestamp) {
        if (tag == null) {
          throw new NullPointerException("Tag passed to outputWithTimestamp cannot be null");
        }
        outputWindowedValue(tag, output, timestamp, element.getWindows(), element.getPaneInfo());
      }

      @Override
      public <T> void outputWindowedValue(
          TupleTag<T> tag,
          T output,
          Instant timestamp,
          Collection<? extends BoundedWindow> windows,
          PaneInfo paneInfo) {
        checkTimestamp(element.getTimestamp(), timestamp);
        emit(
            tag,
            WindowedValues.of(
                output,
                timestamp,
                windows,
                paneInfo,
                element.getRecordId(),
                element.getRecordOffset(),
                element.causedByDrain()));
      }

      @Override
      public void outputWindowedValue(WindowedValue<OutT> windowedValue) {
        outputWindowedValue(mainOutputTag, windowedValue);
      }

      @Override
      public <T> void outputWindowedValue(TupleTag<T> tag, WindowedValue<T> windowedValue) {
        checkTimestamp(element.getTimestamp(), windowedValue.getTimestamp());
        emit(tag, windowedValue);
      }
    }

    /** The main output's receiver. */
    private final class MainOutput implements OutputReceiver<OutT> {
      @Override
      public OutputBuilder<OutT> builder(OutT value) {
        WindowedValue<InT> current = element;
        return WindowedValues.builder(current)
            .withValue(value)
            .setReceiver(
                built -> {
                  checkTimestamp(current.getTimestamp(), built.getTimestamp());
                  emit(mainOutputTag, built);
                });
      }

      @Override
      public void output(OutT value) {
        emit(mainOutputTag, withSameWindows(value));
      }

      @Override
      public void outputWithTimestamp(OutT value, Instant timestamp) {
        context.outputWithTimestamp(mainOutputTag, value, timestamp);
      }

      @Override
      public void outputWindowedValue(
          OutT value,
          Instant timestamp,
          Collection<? extends BoundedWindow> windows,
          PaneInfo paneInfo) {
        context.outputWindowedValue(mainOutputTag, value, timestamp, windows, paneInfo);
      }
    }
  }

  /** The index of {@code id} among {@code ids}: by identity first (the invoker's constants). */
  private static int indexOf(String[] ids, String id, String kind) {
    for (int i = 0; i < ids.length; i++) {
      if (ids[i] == id) {
        return i;
      }
    }
    for (int i = 0; i < ids.length; i++) {
      if (ids[i].equals(id)) {
        // The DoFn's invoker passes its own constant, another instance than the signature's: keep
        // the invoker's, so that its next call matches by identity instead of comparing strings.
        ids[i] = id;
        return i;
      }
    }
    throw new IllegalStateException(kind + " not found: " + id);
  }

  private static BoundedWindow onlyWindow(Collection<? extends BoundedWindow> windows) {
    if (windows.size() == 1 && windows instanceof List<? extends BoundedWindow> list) {
      return list.get(0); // Beam's one-window values hold a list: no iterator to allocate
    }
    Iterator<? extends BoundedWindow> it = windows.iterator();
    BoundedWindow first = it.next();
    if (it.hasNext()) {
      throw new IllegalArgumentException(
          "expected one window but the element is in " + windows.size() + ": " + windows);
    }
    return first;
  }
}
