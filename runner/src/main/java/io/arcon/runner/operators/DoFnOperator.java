package io.arcon.runner.operators;

import io.arcon.runner.metrics.ElementCount;
import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runner.tss.InstanceExport;
import io.arcon.runner.tss.TransformExport;
import io.arcon.runtime.checkpoint.IncompatibleCheckpointException;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.Output;
import io.arcon.runtime.operator.StateUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.DoFnRunners;
import org.apache.beam.runners.core.InMemoryStateInternals;
import org.apache.beam.runners.core.NullSideInputReader;
import org.apache.beam.runners.core.SideInputHandler;
import org.apache.beam.runners.core.SideInputReader;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.StatefulDoFnRunner;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.transforms.reflect.DoFnInvoker;
import org.apache.beam.sdk.transforms.reflect.DoFnInvokers;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.util.SerializableUtils;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;

/**
 * Runs one ParDo: stateless, or stateful over keyed input with state and timers in a state backend;
 * with side inputs (elements pushed back until their side-input windows are ready); with any number
 * of outputs. Built from runners-core's {@link DoFnRunners}; {@link FastPathDoFnRunner} runs the
 * elements of DoFns whose parameters it provides.
 */
public final class DoFnOperator<InT, OutT> implements Operator {

  /** Everything needed to instantiate the ParDo on a node. */
  public record Spec<InT, OutT>(
      String stepName,
      DoFn<InT, OutT> fn,
      PipelineOptions options,
      Coder<InT> inputCoder,
      Map<TupleTag<?>, Coder<?>> outputCoders,
      TupleTag<OutT> mainOutput,
      List<TupleTag<?>> additionalOutputs,
      Map<TupleTag<?>, Integer> outputIndexes,
      WindowingStrategy<?, ?> windowingStrategy,
      List<PCollectionView<?>> sideInputs,
      Map<String, PCollectionView<?>> sideInputMapping,
      DoFnSchemaInformation schemaInformation,
      Coder<?> keyCoder,
      boolean stateful,
      boolean timeSortedInput,
      String stateEngine,
      OperatorMetrics metrics,
      TransformExport export) {}

  private final Spec<InT, OutT> spec;
  private OperatorContext context;

  /** {@code context}'s processing-time clock, made once rather than per element. */
  private LongSupplier processingClock;

  private DoFn<InT, OutT> fn;
  private DoFnInvoker<InT, OutT> invoker;
  private DoFnRunner<InT, OutT> runner;
  private SideInputReadiness sideInputs;
  private KeyedStateContext<Object> keyed;
  private TimeSortedInput<InT> timeSorted;

  /** {@link #fire}, as one object: sorted input passes it with every element it releases. */
  private final Consumer<KeyedTimer> fireTimer = this::fire;

  private InstanceExport export;
  private byte[] currentKeyBytes;

  /** Main input waiting for side inputs; null without side inputs. */
  private PushedBackInput<InT> pushedBack;

  /**
   * Input waiting for a durable epoch: {@code @RequiresStableInput} with epochs, or restored from
   * an epoch (durable already: released with the first bundle after the restore).
   */
  private final StableInput<InT> stableInput = new StableInput<>();

  private boolean requiresStableInput;

  /** The restored epoch whose stable input still waits for the first bundle, or 0. */
  private long restoredStableEpoch;

  private long stableInputHold = Long.MAX_VALUE;
  private Coder<WindowedValue<InT>> heldCoder;
  private long inputWatermark = Long.MIN_VALUE;
  private long lastInputWatermark = Long.MIN_VALUE;
  private BundleFinalizers finalizers;
  private boolean doFnBundleStarted;
  private ElementCount[] outputCounts;

  public DoFnOperator(Spec<InT, OutT> spec) {
    this.spec = spec;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void open(OperatorContext ctx) throws Exception {
    this.context = ctx;
    this.processingClock = ctx::currentProcessingTime;
    this.finalizers = new BundleFinalizers(ctx.checkpointingEnabled());
    this.heldCoder =
        WindowedValues.getFullCoder(
            spec.inputCoder(), spec.windowingStrategy().getWindowFn().windowCoder());
    if (ctx.checkpointingEnabled()
        && DoFnSignatures.getSignature(spec.fn().getClass())
            .processElement()
            .requiresStableInput()) {
      requiresStableInput = true;
    }
    this.fn = SerializableUtils.clone(spec.fn());
    this.invoker = spec.metrics().scoped(() -> DoFnInvokers.tryInvokeSetupFor(fn, spec.options()));
    Output output = ctx.output();
    Map<TupleTag<?>, Integer> indexes = spec.outputIndexes();
    this.outputCounts = spec.metrics().outputElementCounts(indexes.size());
    // The runners pass the main output's own tag object: found by identity, no hash lookup (a
    // TupleTag hashes and compares its id string: 2% of a pass-through pipeline's time).
    TupleTag<OutT> mainTag = spec.mainOutput();
    Integer mainIndex = indexes.get(mainTag);
    WindowedValueMultiReceiver receiver =
        new WindowedValueMultiReceiver() {
          @Override
          public <T> void output(TupleTag<T> tag, WindowedValue<T> value) {
            Integer index = tag == mainTag ? mainIndex : indexes.get(tag);
            if (index != null) {
              if (outputCounts[index] != null) {
                outputCounts[index].increment();
              }
              output.emit(index, value);
            }
          }
        };

    if (spec.stateful()) {
      keyed =
          KeyedStateContext.open(
              spec.stateEngine(),
              spec.stepName(),
              ctx,
              (Coder<Object>) spec.keyCoder(),
              spec.windowingStrategy().getWindowFn().windowCoder());
      if (keyed.restoredInputWatermark() != Long.MIN_VALUE) {
        // Input that was late at the cut is late again on replay, and timers before it fired.
        inputWatermark = keyed.restoredInputWatermark();
        lastInputWatermark = inputWatermark;
      }
      if (spec.timeSortedInput()) {
        timeSorted =
            TimeSortedInput.forEngine(
                spec.stateEngine(),
                keyed.stateInternals.backend(),
                spec.inputCoder(),
                spec.windowingStrategy().getWindowFn().windowCoder());
      }
      if (spec.export() != null) {
        export = spec.export().openInstance(keyed.stateInternals, ctx, () -> inputWatermark);
      }
    }
    StepContext stepContext = new KeyedStepContext(spec.stepName(), keyed, finalizers);

    if (!spec.sideInputs().isEmpty()) {
      sideInputs =
          new SideInputReadiness(
              new SideInputHandler(spec.sideInputs(), InMemoryStateInternals.<Void>forKey(null)),
              spec.sideInputs());
    }
    SideInputReader sideInputReader = sideInputs == null ? NullSideInputReader.empty() : sideInputs;
    DoFnRunner<InT, OutT> simple =
        DoFnRunners.simpleRunner(
            spec.options(),
            fn,
            sideInputReader,
            receiver,
            spec.mainOutput(),
            spec.additionalOutputs(),
            stepContext,
            spec.inputCoder(),
            spec.outputCoders(),
            spec.windowingStrategy(),
            spec.schemaInformation(),
            spec.sideInputMapping());
    if (FastPathDoFnRunner.supports(fn)) {
      simple =
          new FastPathDoFnRunner<>(
              simple,
              spec.options(),
              fn,
              receiver,
              spec.mainOutput(),
              spec.additionalOutputs(),
              stepContext,
              sideInputReader,
              spec.sideInputMapping(),
              spec.outputCoders(),
              spec.windowingStrategy());
    }
    if (spec.stateful()) {
      Coder windowCoder = spec.windowingStrategy().getWindowFn().windowCoder();
      simple =
          // Built directly: DoFnRunners' factory refuses a time-sorted DoFn unless runners-core
          // sorts it (a per-key bag and flush timer); TimeSortedInput has sorted it already.
          new StatefulDoFnRunner<>(
              simple,
              spec.inputCoder(),
              stepContext,
              spec.windowingStrategy(),
              new WindowCleanupTimer<>(keyed.timerInternals, spec.windowingStrategy(), fn),
              new StatefulDoFnRunner.StateInternalsStateCleaner<>(
                  fn, keyed.stateInternals, windowCoder),
              false);
    }
    runner = spec.metrics().scoped(simple);
    if (sideInputs != null) {
      pushedBack = new PushedBackInput<>(sideInputs, spec.sideInputs(), spec.inputCoder());
    }
    if (ctx.restore() != null) {
      restoreHeld(ctx.restore());
    }
  }

  /**
   * The node opens bundles for watermarks and timers of any operator in its chain; the DoFn sees
   * {@code @StartBundle} only when the first element or timer of the bundle reaches it, so it never
   * gets empty bundles (Beam's runners do not start bundles without work).
   */
  @Override
  public void startBundle() {}

  private void ensureDoFnBundle() {
    if (doFnBundleStarted) {
      return;
    }
    doFnBundleStarted = true;
    runner.startBundle();
  }

  @Override
  public boolean sortsInputByEventTime() {
    return timeSorted != null;
  }

  /** A stateful ParDo's input crossed a keyed edge: its state and timers are under these bytes. */
  @Override
  public void setCurrentKey(byte[] keyBytes) {
    this.currentKeyBytes = keyBytes;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void processElement(int port, Object element) throws Exception {
    if (port > 0) {
      spec.metrics().scoped(() -> addSideInput(port, (WindowedValue<Iterable<?>>) element));
      return;
    }
    WindowedValue<InT> value = (WindowedValue<InT>) element;
    releaseRestoredStableInput();
    if (requiresStableInput) {
      stableInput.add(currentKeyBytes, value);
      stableInputHold = Math.min(stableInputHold, value.getTimestamp().getMillis());
      return;
    }
    accept(currentKeyBytes, value);
  }

  /** A main-input element the DoFn may see now: sorted in first, or processed at once. */
  private void accept(byte[] keyBytes, WindowedValue<InT> value) {
    if (timeSorted != null) {
      // Behind the release frontier it would be out of order: too late, dropped as runners-core
      // drops it. Late but within the allowed lateness, it is still sorted in.
      if (value.getTimestamp().getMillis() >= sortedFrontier(inputWatermark)) {
        timeSorted.add(keyBytes, value);
      }
      return;
    }
    processNow(keyBytes, value);
  }

  /** Processes one main-input element; its writes are dated with its timestamp. */
  private void processNow(byte[] keyBytes, WindowedValue<InT> value) {
    if (keyed != null) {
      Object key = ((KV<?, ?>) value.getValue()).getKey();
      keyed.setCurrentKey(keyBytes, key, value.getTimestamp());
      keyed.followProcessingClock(processingClock);
      if (export != null) {
        export.eventProcessed(value.getTimestamp().getMillis());
      }
    }
    ensureDoFnBundle();
    if (pushedBack != null) {
      pushedBack.offer(keyBytes, value, processReady);
    } else {
      runner.processElement(value);
    }
  }

  /** Processes an element in one window whose side inputs are ready. */
  private final PushedBackInput.Processor<InT> processReady =
      (keyBytes, element) -> runner.processElement(element);

  /** The smallest timestamp of main input waiting for side inputs, or {@code Long.MAX_VALUE}. */
  private long pushedBackHold() {
    return pushedBack == null ? Long.MAX_VALUE : pushedBack.hold();
  }

  private void addSideInput(int port, WindowedValue<Iterable<?>> pane) throws Exception {
    sideInputs.add(spec.sideInputs().get(port - 1), pane);
    retryPushedBack();
    if (lastInputWatermark != Long.MIN_VALUE) {
      advanceWatermark(lastInputWatermark);
    }
  }

  private void retryPushedBack() {
    if (pushedBack == null || pushedBack.isEmpty()) {
      return;
    }
    // Each element is in one window, ready now; processNow sets its key (a stateful DoFn's state
    // is per key) and finds the window ready.
    pushedBack.takeReady(this::processNow);
  }

  @Override
  public void advancePortWatermark(int port, long watermark) throws Exception {
    if (port > 0 && sideInputs != null) {
      spec.metrics()
          .scoped(
              () -> {
                sideInputs.advanceWatermark(spec.sideInputs().get(port - 1), watermark);
                retryPushedBack();
              });
      advanceWatermark(lastInputWatermark);
    }
  }

  /**
   * Elements pushed back for side inputs hold this operator's effective input watermark: its timers
   * must not fire, and the stateful runner must not see those elements as late, before they were
   * processed.
   */
  @Override
  public void advanceWatermark(long watermark) throws Exception {
    releaseRestoredStableInput();
    lastInputWatermark = Math.max(lastInputWatermark, watermark);
    if (watermark == Long.MAX_VALUE && pushedBack != null && !pushedBack.isEmpty()) {
      // Every input, side inputs included, has ended: each pushed-back window is readable now.
      retryPushedBack();
    }
    long effective = Math.min(lastInputWatermark, Math.min(pushedBackHold(), stableInputHold));
    if (effective <= inputWatermark) {
      return;
    }
    inputWatermark = effective;
    if (keyed == null) {
      return;
    }
    long now = context.currentProcessingTime();
    long frontier = effective;
    if (timeSorted != null) {
      frontier = sortedFrontier(effective);
      releaseSorted(frontier, now);
    }
    keyed.fireEventTimers(effective, now, this::fire);
    if (export != null) {
      // Versions before the frontier are complete: every input before it has been applied.
      export.watermarkAdvanced(frontier);
    }
  }

  /**
   * Time-sorted input is released up to the watermark minus the allowed lateness (as runners-core's
   * sort flush does): an element late by less than that still finds its place in the order.
   */
  private long sortedFrontier(long watermark) {
    long lateness = spec.windowingStrategy().getAllowedLateness().getMillis();
    if (watermark == Long.MAX_VALUE || watermark == Long.MIN_VALUE) {
      return watermark;
    }
    long frontier = watermark - lateness;
    return frontier > watermark ? Long.MIN_VALUE : frontier; // underflow
  }

  /**
   * Releases buffered input below {@code watermark} in timestamp order, interleaved with the event
   * timers due before each element, so every write happens in event-time order. Around each element
   * the timers see the watermark at its timestamp: the element is not late for its window, and a
   * timer set in the past fires before the next element, as it would have on sorted input.
   */
  private void releaseSorted(long watermark, long now) throws Exception {
    Instant processingTime = new Instant(now);
    timeSorted.releaseBefore(
        watermark,
        (keyBytes, element) -> {
          keyed.fireEventTimersBefore(element.getTimestamp(), processingTime, fireTimer);
          processNow(keyBytes, element);
        });
  }

  @Override
  public void advanceProcessingTime(long nowMillis) throws Exception {
    if (keyed == null) {
      return;
    }
    keyed.fireProcessingTimers(inputWatermark, nowMillis, this::fire);
  }

  @Override
  public long nextProcessingTimeWakeup() {
    return keyed == null ? Long.MAX_VALUE : keyed.nextProcessingTimeWakeup();
  }

  private void fire(KeyedTimer keyedTimer) {
    ensureDoFnBundle();
    Object key = keyed.setCurrentKeyForTimer(keyedTimer);
    TimerData timer = keyedTimer.timer();
    if (!StatefulDoFnRunner.TimeInternalsCleanupTimer.GC_TIMER_ID.equals(timer.getTimerId())) {
      context.userTimerCallbackStarts();
    }
    StateNamespace ns = timer.getNamespace();
    BoundedWindow window =
        ns instanceof StateNamespaces.WindowNamespace<?> wns
            ? wns.getWindow()
            : GlobalWindow.INSTANCE;
    runner.onTimer(
        timer.getTimerId(),
        timer.getTimerFamilyId(),
        key,
        window,
        timer.getTimestamp(),
        timer.getOutputTimestamp(),
        timer.getDomain(),
        timer.causedByDrain());
  }

  @Override
  public long outputWatermarkHold() {
    long hold = Math.min(pushedBackHold(), stableInputHold);
    if (keyed != null) {
      hold = Math.min(hold, keyed.hold(true));
    }
    return hold;
  }

  @Override
  public void finishBundle() throws Exception {
    if (!doFnBundleStarted) {
      return;
    }
    doFnBundleStarted = false;
    runner.finishBundle();
    spec.metrics().scoped(finalizers::finalizeBundle);
    OperatorMetrics.flush(outputCounts);
  }

  /**
   * An instance whose state is exported keeps running after its input ended until the control plane
   * has every version due up to the app's end (bounded pipelines).
   */
  @Override
  public boolean hasPendingWork() {
    return export != null && !export.drained();
  }

  /** The file of an instance's snapshot that holds what the ParDo keeps outside its backend. */
  static final String SNAPSHOT_FILE = "dofn";

  private static final String SNAPSHOT_KIND = "dofn-operator";

  /**
   * 3: version chains keep a row's writes as entries in lists (its backend's {@code
   * beam_state_history} reads differently), so version-2 epochs are refused rather than misread.
   */
  private static final int SNAPSHOT_VERSION = 3;

  /**
   * Cuts epoch {@code snapshot.epoch()}: the state backend's snapshot, then one file with the input
   * held outside it (pushed back, time-sorted on heap, waiting for a durable epoch) and the side
   * inputs received so far, which upstream never sends again after a restore.
   */
  @Override
  public void snapshotState(OperatorSnapshot snapshot) throws Exception {
    finalizers.epochCut(snapshot.epoch());
    stableInput.seal(snapshot.epoch());
    if (keyed != null) {
      keyed.snapshot(snapshot, inputWatermark);
    }
    SnapshotWriter out = new SnapshotWriter(SNAPSHOT_KIND, SNAPSHOT_VERSION);
    out.writeBytes(doFnIdentity());
    if (pushedBack != null) {
      pushedBack.writeTo(out, heldCoder);
    } else {
      HeldElements.write(out, heldCoder, List.of());
    }
    stableInput.writeTo(out, heldCoder);
    out.writeBoolean(timeSorted != null);
    if (timeSorted != null) {
      timeSorted.writeTo(out, heldCoder);
    }
    out.writeBoolean(sideInputs != null);
    if (sideInputs != null) {
      sideInputs.writeTo(out);
    }
    out.writeTo(snapshot.directory().resolve(SNAPSHOT_FILE));
  }

  /**
   * What a restore must find unchanged: the DoFn's class and the state and timers it declares (a
   * changed DoFn under the same transform name would misread the state).
   */
  private byte[] doFnIdentity() {
    DoFnSignature signature = DoFnSignatures.getSignature(spec.fn().getClass());
    return ("DoFn "
            + spec.fn().getClass().getName()
            + " with state "
            + new TreeSet<>(signature.stateDeclarations().keySet())
            + " and timers "
            + new TreeSet<>(signature.timerDeclarations().keySet()))
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Restores what {@link #snapshotState} wrote. After a parallelism change every previous
   * instance's file is read and held input is kept where its key now lives; side inputs are the
   * same in every instance, so the first one's are taken.
   */
  private void restoreHeld(OperatorRestore restore) throws IOException {
    int instance = context.instanceIndex();
    int parallelism = context.parallelism();
    boolean sideInputsRead = false;
    for (int p : RestoredInstances.toRead(restore, instance)) {
      Path file = restore.directoryOf(p).resolve(SNAPSHOT_FILE);
      SnapshotReader in = SnapshotReader.open(file, SNAPSHOT_KIND, SNAPSHOT_VERSION);
      String saved = new String(in.readBytes("DoFn identity"), StandardCharsets.UTF_8);
      String now = new String(doFnIdentity(), StandardCharsets.UTF_8);
      if (!saved.equals(now)) {
        throw new IncompatibleCheckpointException(
            "Cannot restore "
                + spec.stepName()
                + " from "
                + file
                + ": the checkpoint ran "
                + saved
                + " but the pipeline now runs "
                + now
                + ". --restoreFrom needs the same pipeline; start this one without it.");
      }
      HeldElements<InT> waiting = new HeldElements<>();
      waiting.readFrom(in, heldCoder, p, instance, parallelism);
      if (!waiting.isEmpty()) {
        if (pushedBack == null) {
          throw in.corrupt("it holds input waiting for side inputs but the ParDo reads none", null);
        }
        pushedBack.restore(waiting.drain());
      }
      stableInput.readFrom(in, heldCoder, restore.epoch(), p, instance, parallelism);
      if (in.readBoolean("time-sorted input presence")) {
        HeldElements<InT> sorted = new HeldElements<>();
        sorted.readFrom(in, heldCoder, p, instance, parallelism);
        if (!sorted.isEmpty() && timeSorted == null) {
          throw in.corrupt(
              "it holds time-sorted input but the ParDo does not sort its input", null);
        }
        for (HeldElements.Held<InT> held : sorted.drain()) {
          timeSorted.add(held.keyBytes(), held.value());
        }
      }
      boolean hasSideInputs = in.readBoolean("side input presence");
      if (hasSideInputs != (sideInputs != null)) {
        throw in.corrupt(
            hasSideInputs
                ? "it holds side inputs but the ParDo reads none"
                : "it holds no side inputs but the ParDo reads some",
            null);
      }
      if (hasSideInputs) {
        sideInputs.readFrom(in, !sideInputsRead);
        sideInputsRead = true;
      }
      in.expectEnd();
    }
    stableInputHold = stableInput.minTimestamp();
    if (!stableInput.isEmpty()) {
      restoredStableEpoch = restore.epoch();
    }
  }

  /** Restored stable input is durable: the first bundle after the restore processes it. */
  private void releaseRestoredStableInput() throws Exception {
    if (restoredStableEpoch != 0) {
      long epoch = restoredStableEpoch;
      restoredStableEpoch = 0;
      releaseStableInput(epoch);
    }
  }

  /**
   * Epoch {@code epoch} is durable: bundle finalizers of bundles before it run, and input held for
   * {@code @RequiresStableInput} up to it is processed (in a bundle the node opened).
   */
  @Override
  public void epochCompleted(long epoch) throws Exception {
    spec.metrics().scoped(() -> finalizers.epochCompleted(epoch));
    releaseRestoredStableInput();
    releaseStableInput(epoch);
  }

  private void releaseStableInput(long epoch) throws Exception {
    processReleased(stableInput.release(epoch));
  }

  private void processReleased(List<HeldElements.Held<InT>> released) throws Exception {
    stableInputHold = stableInput.minTimestamp();
    if (released.isEmpty()) {
      return;
    }
    for (HeldElements.Held<InT> held : released) {
      accept(held.keyBytes(), held.value());
    }
    if (lastInputWatermark != Long.MIN_VALUE) {
      advanceWatermark(lastInputWatermark);
    }
  }

  @Override
  public void endOfInput() throws Exception {
    releaseRestoredStableInput();
    if (!stableInput.isEmpty()) {
      // No epoch can complete for this instance any more (its input ended): the rest is processed
      // now, so a failure after this point replays it (at least once at the very end of a job).
      processReleased(stableInput.releaseAll());
    }
    if (pushedBack != null && !pushedBack.isEmpty()) {
      // Every side input has ended by now, so each pushed-back window reads its final value.
      retryPushedBack();
      if (!pushedBack.isEmpty()) {
        throw new IllegalStateException(
            spec.stepName()
                + ": "
                + pushedBack.size()
                + " elements still wait for side inputs at the end of input");
      }
    }
  }

  @Override
  public StateUsage stateUsage() {
    return keyed == null ? null : keyed.stateUsage();
  }

  @Override
  public void close() throws Exception {
    try {
      if (invoker != null) {
        spec.metrics().scoped(invoker::invokeTeardown);
      }
    } finally {
      if (export != null) {
        export.close();
      }
      if (keyed != null) {
        keyed.close();
      }
    }
  }
}
