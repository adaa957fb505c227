package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.snapshot.SnapshotReader;
import io.arcon.runner.operators.snapshot.SnapshotWriter;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorRestore;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.Output;
import io.arcon.runtime.operator.StateUsage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.DoFnRunners;
import org.apache.beam.runners.core.InMemoryStateInternals;
import org.apache.beam.runners.core.KeyedWorkItem;
import org.apache.beam.runners.core.KeyedWorkItems;
import org.apache.beam.runners.core.OutputAndTimeBoundedSplittableProcessElementInvoker;
import org.apache.beam.runners.core.ProcessFnRunner;
import org.apache.beam.runners.core.SideInputHandler;
import org.apache.beam.runners.core.SplittableParDoViaKeyedWorkItems;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Duration;

/**
 * Runs a splittable DoFn via runners-core's {@link SplittableParDoViaKeyedWorkItems.ProcessFn}:
 * each (element, restriction) is processed for a bounded number of outputs and time, then
 * checkpointed; the residual restriction waits in keyed state for a processing-time timer. The
 * operator has pending work while residuals remain, so its node does not finish before they are
 * done. Watermark estimators hold the output watermark through watermark-hold state.
 */
public final class SplittableProcessOperator<InT, OutT, RestT> implements Operator {
  private static final int MAX_OUTPUTS_PER_CALL = 10_000;
  private static final Duration MAX_DURATION_PER_CALL = Duration.standardSeconds(10);

  /** What the operator needs. */
  public record Spec<InT, OutT, RestT>(
      String stepName,
      SplittableParDoViaKeyedWorkItems.ProcessElements<InT, OutT, RestT, ?, ?> transform,
      PipelineOptions options,
      Coder<KeyedWorkItem<byte[], KV<InT, RestT>>> inputCoder,
      Map<TupleTag<?>, Coder<?>> outputCoders,
      Map<TupleTag<?>, Integer> outputIndexes,
      WindowingStrategy<?, ?> windowingStrategy,
      String stateEngine,
      OperatorMetrics metrics) {}

  private final Spec<InT, OutT, RestT> spec;
  private OperatorContext context;

  /** {@code context}'s processing-time clock, made once rather than per element. */
  private LongSupplier processingClock;

  private KeyedStateContext<byte[]> keyed;
  private byte[] currentKeyBytes;
  private ProcessFnRunner<InT, OutT, RestT> runner;
  private SplittableParDoViaKeyedWorkItems.ProcessFn<InT, OutT, RestT, ?, ?> processFn;
  private SideInputReadiness sideInputs;
  private ScheduledExecutorService checkpointTimer;
  private BundleFinalizers finalizers;
  private final List<WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>>> pushedBack =
      new ArrayList<>();
  private Coder<WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>>> heldCoder;
  private long inputWatermark = Long.MIN_VALUE;

  public SplittableProcessOperator(Spec<InT, OutT, RestT> spec) {
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
    // Each parallel instance owns its DoFn: lifecycle methods run once per instance.
    DoFn<InT, OutT> fn = org.apache.beam.sdk.util.SerializableUtils.clone(spec.transform().getFn());
    processFn = spec.transform().newProcessFn(fn);
    // Timers and state are namespaced by the windows of the SDF's own input, not by the global
    // window the work items travel in.
    keyed =
        KeyedStateContext.open(
            spec.stateEngine(),
            spec.stepName(),
            ctx,
            ByteArrayCoder.of(),
            processFn.getInputWindowingStrategy().getWindowFn().windowCoder());
    inputWatermark = keyed.restoredInputWatermark();
    Output output = ctx.output();
    Map<TupleTag<?>, Integer> indexes = spec.outputIndexes();
    WindowedValueMultiReceiver receiver =
        new WindowedValueMultiReceiver() {
          @Override
          public <T> void output(TupleTag<T> tag, WindowedValue<T> value) {
            Integer index = indexes.get(tag);
            if (index != null) {
              output.emit(index, value);
            }
          }
        };
    List<PCollectionView<?>> views = spec.transform().getSideInputs();
    sideInputs =
        new SideInputReadiness(
            new SideInputHandler(views, InMemoryStateInternals.<Void>forKey(null)), views);
    checkpointTimer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "arcon-sdf-checkpoint");
              t.setDaemon(true);
              return t;
            });
    processFn.setStateInternalsFactory(key -> keyed.stateInternals);
    processFn.setTimerInternalsFactory(key -> keyed.timerInternals);
    processFn.setSideInputReader(sideInputs);
    processFn.setProcessElementInvoker(
        new OutputAndTimeBoundedSplittableProcessElementInvoker(
            fn,
            spec.options(),
            receiver,
            spec.transform().getMainOutputTag(),
            sideInputs,
            checkpointTimer,
            MAX_OUTPUTS_PER_CALL,
            MAX_DURATION_PER_CALL,
            () -> finalizers));
    spec.metrics().scoped(() -> processFn.setup(spec.options()));
    StepContext stepContext = new KeyedStepContext(spec.stepName(), keyed, finalizers);
    // What DoFnRunners.newProcessFnRunner builds, with the step's metrics around the inner runner.
    DoFnRunner<KeyedWorkItem<byte[], KV<InT, RestT>>, OutT> simple =
        DoFnRunners.simpleRunner(
            spec.options(),
            (SplittableParDoViaKeyedWorkItems.ProcessFn) processFn,
            sideInputs,
            receiver,
            spec.transform().getMainOutputTag(),
            spec.transform().getAdditionalOutputTags().getAll(),
            stepContext,
            spec.inputCoder(),
            spec.outputCoders(),
            spec.windowingStrategy(),
            DoFnSchemaInformation.create(),
            spec.transform().getSideInputMapping());
    runner = new ProcessFnRunner<>(spec.metrics().scoped(simple), views, sideInputs);
    if (ctx.restore() != null) {
      restoreHeld(ctx.restore());
    }
  }

  @Override
  public void startBundle() {
    runner.startBundle();
  }

  /**
   * The work item was emitted keyed by {@link ToKeyedWorkItemOperator}: these are its key bytes.
   */
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
    WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>> item =
        (WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>>) element;
    keyed.setCurrentKey(currentKeyBytes, item.getValue().key(), item.getTimestamp());
    keyed.followProcessingClock(processingClock);
    for (WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>> pushed :
        runner.processElementInReadyWindows(item)) {
      pushedBack.add(pushed);
    }
  }

  private void addSideInput(int port, WindowedValue<Iterable<?>> pane) throws Exception {
    sideInputs.add(spec.transform().getSideInputs().get(port - 1), pane);
    retryPushedBack();
  }

  private void retryPushedBack() throws Exception {
    if (pushedBack.isEmpty()) {
      return;
    }
    List<WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>>> retry = new ArrayList<>(pushedBack);
    pushedBack.clear();
    for (WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>> item : retry) {
      byte[] key = item.getValue().key();
      keyed.setCurrentKey(
          org.apache.beam.sdk.util.CoderUtils.encodeToByteArray(ByteArrayCoder.of(), key),
          key,
          item.getTimestamp());
      for (WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>> pushed :
          runner.processElementInReadyWindows(item)) {
        pushedBack.add(pushed);
      }
    }
  }

  @Override
  public void advancePortWatermark(int port, long watermark) throws Exception {
    if (port > 0) {
      spec.metrics()
          .scoped(
              () -> {
                sideInputs.advanceWatermark(
                    spec.transform().getSideInputs().get(port - 1), watermark);
                retryPushedBack();
              });
    }
  }

  @Override
  public void advanceWatermark(long watermark) {
    if (watermark <= inputWatermark) {
      return;
    }
    inputWatermark = watermark;
    keyed.fireEventTimers(watermark, context.currentProcessingTime(), this::fire);
  }

  @Override
  public void advanceProcessingTime(long nowMillis) {
    // Only the resumptions due when the round starts: a residual that resumes at once schedules
    // itself for "now" again, and firing those too would keep the node in this round for as long
    // as the restriction lasts, with its mailbox (epochs, finalization) unread.
    keyed.setWatermarks(inputWatermark, new org.joda.time.Instant(nowMillis));
    List<KeyedTimer> due = new ArrayList<>();
    KeyedTimer timer;
    while ((timer = keyed.pollProcessingTimer(nowMillis)) != null) {
      due.add(timer);
    }
    for (KeyedTimer t : due) {
      fire(t);
    }
  }

  private void fire(KeyedTimer timer) {
    byte[] key = keyed.setCurrentKeyForTimer(timer);
    KeyedWorkItem<byte[], KV<InT, RestT>> item =
        KeyedWorkItems.timersWorkItem(key, List.of(timer.timer()));
    for (WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>> pushed :
        runner.processElementInReadyWindows(WindowedValues.valueInGlobalWindow(item))) {
      pushedBack.add(pushed);
    }
  }

  @Override
  public long nextProcessingTimeWakeup() {
    return keyed.nextProcessingTimeWakeup();
  }

  @Override
  public boolean hasPendingWork() {
    return keyed.nextProcessingTimeWakeup() != Long.MAX_VALUE || !pushedBack.isEmpty();
  }

  @Override
  public long outputWatermarkHold() {
    long hold = keyed.hold(true);
    for (WindowedValue<?> v : pushedBack) {
      hold = Math.min(hold, v.getTimestamp().getMillis());
    }
    return hold;
  }

  @Override
  public void finishBundle() throws Exception {
    runner.finishBundle();
    spec.metrics().scoped(finalizers::finalizeBundle);
  }

  private static final String SNAPSHOT_FILE = "splittable";
  private static final String SNAPSHOT_KIND = "splittable-process";
  private static final int SNAPSHOT_VERSION = 1;

  /**
   * The restrictions in progress, their watermark estimator states and the timers that resume them
   * are keyed state (with the input watermark, in the backend's snapshot); the side inputs received
   * so far and the work items pushed back waiting for them are written next to it.
   */
  @Override
  public void snapshotState(OperatorSnapshot snapshot) throws Exception {
    finalizers.epochCut(snapshot.epoch());
    keyed.snapshot(snapshot, inputWatermark);
    SnapshotWriter out = new SnapshotWriter(SNAPSHOT_KIND, SNAPSHOT_VERSION);
    List<HeldElements.Held<KeyedWorkItem<byte[], KV<InT, RestT>>>> held = new ArrayList<>();
    for (WindowedValue<KeyedWorkItem<byte[], KV<InT, RestT>>> item : pushedBack) {
      held.add(new HeldElements.Held<>(keyBytesOf(item.getValue().key()), item));
    }
    HeldElements.write(out, heldCoder, held);
    sideInputs.writeTo(out);
    out.writeTo(snapshot.directory().resolve(SNAPSHOT_FILE));
  }

  private void restoreHeld(OperatorRestore restore) throws IOException {
    boolean sideInputsRead = false;
    HeldElements<KeyedWorkItem<byte[], KV<InT, RestT>>> restored = new HeldElements<>();
    for (int p : RestoredInstances.toRead(restore, context.instanceIndex())) {
      SnapshotReader in =
          SnapshotReader.open(
              restore.directoryOf(p).resolve(SNAPSHOT_FILE), SNAPSHOT_KIND, SNAPSHOT_VERSION);
      restored.readFrom(in, heldCoder, p, context.instanceIndex(), context.parallelism());
      sideInputs.readFrom(in, !sideInputsRead);
      sideInputsRead = true;
      in.expectEnd();
    }
    for (HeldElements.Held<KeyedWorkItem<byte[], KV<InT, RestT>>> held : restored.drain()) {
      pushedBack.add(held.value());
    }
  }

  /** The bytes the keyed edge routed the work item by (its key, encoded). */
  private static byte[] keyBytesOf(byte[] key) throws IOException {
    return org.apache.beam.sdk.util.CoderUtils.encodeToByteArray(ByteArrayCoder.of(), key);
  }

  @Override
  public void epochCompleted(long epoch) throws Exception {
    spec.metrics().scoped(() -> finalizers.epochCompleted(epoch));
  }

  @Override
  public StateUsage stateUsage() {
    return keyed == null ? null : keyed.stateUsage();
  }

  @Override
  public void close() throws Exception {
    try {
      if (processFn != null) {
        processFn.tearDown();
      }
    } finally {
      if (checkpointTimer != null) {
        checkpointTimer.shutdownNow();
      }
      if (keyed != null) {
        keyed.close();
      }
    }
  }
}
