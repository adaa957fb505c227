package io.arcon.portability.execution;

import io.arcon.runner.operators.BackendTimeSortedInput;
import io.arcon.runner.operators.KeyedStateContext;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.Output;
import io.arcon.runtime.operator.StateUsage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.model.fnexecution.v1.BeamFnApi;
import org.apache.beam.model.fnexecution.v1.BeamFnApi.StateKey.TypeCase;
import org.apache.beam.model.pipeline.v1.MetricsApi;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.runners.fnexecution.control.BundleCheckpointHandler;
import org.apache.beam.runners.fnexecution.control.BundleProgressHandler;
import org.apache.beam.runners.fnexecution.control.OutputReceiverFactory;
import org.apache.beam.runners.fnexecution.control.RemoteBundle;
import org.apache.beam.runners.fnexecution.control.StageBundleFactory;
import org.apache.beam.runners.fnexecution.control.TimerReceiverFactory;
import org.apache.beam.runners.fnexecution.state.StateRequestHandler;
import org.apache.beam.runners.fnexecution.state.StateRequestHandlers;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.fn.data.FnDataReceiver;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.util.construction.Timer;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;

/**
 * One executable stage on an Arcon node: main-input elements go to an SDK harness as one remote
 * bundle at a time, and what the harness sends back (outputs, timers, residuals of splittable
 * DoFns, metrics) comes back into the node. The harness answers on gRPC threads, so those answers
 * are queued and taken up on the node's thread; user state requests are served directly on the gRPC
 * threads under the stage's lock.
 *
 * <p>A remote bundle is closed (the harness finishes it and every output of it has arrived) before
 * the node forwards a watermark, before a checkpoint and when the node's bundle ends, so nothing
 * the stage emits can be behind a watermark it already let through.
 */
public final class ExecutableStageOperator implements Operator {

  /**
   * What a stage instance needs.
   *
   * @param stepName the stage's name in the job graph and in metrics
   * @param stage the fused stage
   * @param outputIds the stage's output PCollections, in operator output order
   * @param sideInputs side inputs in port order (port i + 1), with their window mappings
   * @param keys the key form of a keyed stage (user state or timers), else null
   * @param stateEngine the state backend of a keyed stage, else null
   * @param bundles the job's SDK harness connections
   * @param metrics the job's metrics, updated from the harness's monitoring infos
   */
  public record Spec(
      String stepName,
      ExecutableStage stage,
      List<String> outputIds,
      List<SideInputSpec> sideInputs,
      StageKeys keys,
      Coder<? extends BoundedWindow> windowCoder,
      Coder<WindowedValue<?>> inputCoder,
      String stateEngine,
      List<WindowExpiration> windowExpirations,
      boolean timeSortedInput,
      long allowedLateness,
      JobBundles bundles,
      MetricsContainerStepMap metrics) {}

  /**
   * A DoFn of the stage with {@code @OnWindowExpiration}: the harness expects a timer of {@code
   * timerFamily} per key and window when the window expires ({@code allowedLateness} after its
   * end), which the runner sets as elements arrive.
   */
  public record WindowExpiration(String transformId, String timerFamily, long allowedLateness) {}

  /** A side input as the runner sees it: who reads it and how main windows map to its windows. */
  /**
   * A side input of the stage; {@code panes} when it arrives grouped into panes by the runner (a
   * triggered side input), with {@code coder} the coder of those panes.
   */
  public record SideInputSpec(
      String transformId,
      String localName,
      org.apache.beam.sdk.transforms.windowing.WindowMappingFn<?> mapping,
      Coder<WindowedValue<?>> coder,
      boolean panes) {}

  private record Emitted(int output, WindowedValue<?> value) {}

  private record SetTimer(Timer<?> timer, TimerData data) {}

  record Residual(WindowedValue<?> element, long resumeAt, long hold) {}

  private final Spec spec;
  private final Object lock = new Object();
  private final ConcurrentLinkedQueue<Emitted> emitted = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<SetTimer> timersSet = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Residual> residualsReturned = new ConcurrentLinkedQueue<>();
  private final List<Residual> residuals = new ArrayList<>();

  /**
   * Main-input elements waiting for their side inputs, each with the number of main-input watermark
   * advances before it arrived: released elements that arrived between different watermarks go to
   * different bundles, as they would have without the wait (so a bundle's finalization can run
   * before the elements that came after a watermark).
   */
  private final ArrayDeque<Held> held = new ArrayDeque<>();

  private record Held(WindowedValue<?> value, long watermarkAdvances) {}

  private long watermarkAdvances;

  private OperatorContext context;
  private Output output;
  private StageBundleFactory stageBundles;
  private StageSideInputs sideInputs;
  private KeyedStateContext<Object> keyed;
  private StateRequestHandler stateRequests;
  private StageBundleFinalizer finalizer;
  private RemoteBundle bundle;
  private FnDataReceiver<WindowedValue<?>> mainInput;
  private long inputWatermark = Long.MIN_VALUE;

  /** Input of a DoFn that requires time-sorted input, kept in the backend until released. */
  private BackendTimeSortedInput<Object> timeSorted;

  private long emittedSinceDrain;

  public ExecutableStageOperator(Spec spec) {
    this.spec = spec;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void open(OperatorContext context) throws Exception {
    this.context = context;
    this.output = context.output();
    this.stageBundles = spec.bundles().forStage(spec.stage());
    List<StageSideInputs.Port> ports = new ArrayList<>();
    for (SideInputSpec s : spec.sideInputs()) {
      ports.add(new StageSideInputs.Port(s.transformId(), s.localName(), s.mapping(), s.panes()));
    }
    sideInputs = new StageSideInputs(ports);
    if (spec.keys() != null) {
      keyed =
          KeyedStateContext.open(
              spec.stateEngine(),
              spec.stepName(),
              context,
              (Coder) spec.keys().keyCoder(),
              spec.windowCoder());
      inputWatermark = keyed.restoredInputWatermark();
      if (spec.timeSortedInput()) {
        timeSorted =
            new BackendTimeSortedInput<>(
                keyed.stateInternals().backend(),
                (Coder)
                    ((WindowedValues.FullWindowedValueCoder<?>) (Coder) spec.inputCoder())
                        .getValueCoder(),
                spec.windowCoder());
      }
    }
    EnumMap<TypeCase, StateRequestHandler> handlers = new EnumMap<>(TypeCase.class);
    if (!sideInputs.isEmpty()) {
      StateRequestHandler sides =
          StateRequestHandlers.forSideInputHandlerFactory(
              (Map) stageBundles.getProcessBundleDescriptor().getSideInputSpecs(), sideInputs);
      handlers.put(TypeCase.ITERABLE_SIDE_INPUT, sides);
      handlers.put(TypeCase.MULTIMAP_SIDE_INPUT, sides);
      handlers.put(TypeCase.MULTIMAP_KEYS_SIDE_INPUT, sides);
      handlers.put(
          TypeCase.MULTIMAP_KEYS_VALUES_SIDE_INPUT,
          sideInputs.keysValuesHandler(
              (Map) stageBundles.getProcessBundleDescriptor().getSideInputSpecs()));
    }
    if (keyed != null && !spec.stage().getUserStates().isEmpty()) {
      handlers.put(
          TypeCase.BAG_USER_STATE,
          StateRequestHandlers.forBagUserStateHandlerFactory(
              stageBundles.getProcessBundleDescriptor(),
              new StageUserState(keyed, spec.keys(), lock)));
      StageStateScope scope = new StageStateScope(keyed, spec.keys(), (Coder) spec.windowCoder());
      StateRequestHandler multimaps =
          new StageMultimapUserState(scope, new StateValueCoders(spec.stage()), lock);
      handlers.put(TypeCase.MULTIMAP_USER_STATE, multimaps);
      handlers.put(TypeCase.MULTIMAP_KEYS_USER_STATE, multimaps);
      handlers.put(TypeCase.MULTIMAP_ENTRIES_USER_STATE, multimaps);
      handlers.put(TypeCase.ORDERED_LIST_USER_STATE, new StageOrderedListUserState(scope, lock));
    }
    stateRequests = StateRequestHandlers.delegateBasedUponType(handlers);
    if (context.restore() != null) {
      StageSnapshot.restore(this, context.restore());
    }
    finalizer =
        new StageBundleFinalizer(stageBundles.getInstructionRequestHandler(), spec.stepName());
  }

  // ---------------------------------------------------------------- remote bundles

  private void ensureBundle() throws Exception {
    if (bundle != null) {
      return;
    }
    OutputReceiverFactory outputs =
        new OutputReceiverFactory() {
          @Override
          public <T> FnDataReceiver<T> create(String pCollectionId) {
            int index = spec.outputIds().indexOf(pCollectionId);
            if (index < 0) {
              throw new IllegalStateException(
                  "The SDK harness sent output to "
                      + pCollectionId
                      + ", not an output of "
                      + spec.stepName());
            }
            return value -> emitted.add(new Emitted(index, (WindowedValue<?>) value));
          }
        };
    TimerReceiverFactory timers =
        new TimerReceiverFactory(
            stageBundles,
            (timer, data) -> timersSet.add(new SetTimer(timer, data)),
            spec.windowCoder());
    BundleProgressHandler progress =
        new BundleProgressHandler() {
          @Override
          public void onProgress(BeamFnApi.ProcessBundleProgressResponse response) {}

          @Override
          public void onCompleted(BeamFnApi.ProcessBundleResponse response) {
            StageMetrics.report(spec.metrics(), response.getMonitoringInfosList());
          }
        };
    BundleCheckpointHandler checkpoints = this::onCheckpoint;
    try {
      bundle =
          stageBundles.getBundle(outputs, timers, stateRequests, progress, finalizer, checkpoints);
    } catch (Exception e) {
      throw harnessGone(e);
    }
    @SuppressWarnings("unchecked")
    FnDataReceiver<WindowedValue<?>> receiver =
        (FnDataReceiver<WindowedValue<?>>) bundle.getInputReceivers().values().iterator().next();
    mainInput = receiver;
  }

  /** Ends the open remote bundle: the harness finishes it, then its results are taken up. */
  private void closeBundle() throws Exception {
    if (bundle == null) {
      return;
    }
    RemoteBundle closing = bundle;
    bundle = null;
    mainInput = null;
    try {
      closing.close();
    } catch (Exception e) {
      throw harnessGone(e);
    }
    drainOutputs();
    applyTimers();
    residuals.addAll(drainQueue(residualsReturned));
    if (!context.checkpointingEnabled()) {
      finalizer.finalizeOutstandingBundles();
    }
  }

  private void drainOutputs() {
    Emitted e;
    while ((e = emitted.poll()) != null) {
      output.emit(e.output(), e.value());
    }
  }

  private static <T> List<T> drainQueue(ConcurrentLinkedQueue<T> queue) {
    List<T> out = new ArrayList<>();
    T t;
    while ((t = queue.poll()) != null) {
      out.add(t);
    }
    return out;
  }

  private void send(WindowedValue<?> element) throws Exception {
    ensureBundle();
    try {
      mainInput.accept(element);
    } catch (Exception e) {
      throw harnessGone(e);
    }
    // The harness's outputs go out as they come, so a long bundle does not pile them up here.
    if (++emittedSinceDrain >= 64) {
      emittedSinceDrain = 0;
      drainOutputs();
    }
  }

  // ---------------------------------------------------------------- elements

  @Override
  public void processElement(int port, Object element) throws Exception {
    WindowedValue<?> value = (WindowedValue<?>) element;
    if (port == 0 && !spec.windowExpirations().isEmpty()) {
      setExpirationTimers(value);
    }
    if (port > 0) {
      // The harness may be reading side inputs of the open bundle: change them between bundles.
      closeBundle();
      sideInputs.add(port - 1, value);
      releaseHeld();
      return;
    }
    if (timeSorted != null) {
      // Behind the release frontier it would be out of order: too late, dropped (as runners-core
      // drops it); late but within the allowed lateness, it still finds its place.
      if (value.getTimestamp().getMillis() >= sortedFrontier(inputWatermark)) {
        timeSorted.add(spec.keys().ofElement(value), (WindowedValue) value);
      }
      return;
    }
    if (sideInputs.isEmpty()) {
      send(value);
      return;
    }
    for (WindowedValue<?> single : value.explodeWindows()) {
      if (held.isEmpty() && sideInputs.isReady(single.getWindows().iterator().next())) {
        send(single);
      } else {
        held.add(new Held(single, watermarkAdvances));
      }
    }
  }

  /**
   * Sends the held elements whose side inputs are ready now, in arrival order, in one bundle per
   * main-input watermark they arrived under.
   */
  private void releaseHeld() throws Exception {
    Iterator<Held> it = held.iterator();
    List<Held> ready = new ArrayList<>();
    while (it.hasNext()) {
      Held h = it.next();
      if (sideInputs.isReady(h.value().getWindows().iterator().next())) {
        ready.add(h);
        it.remove();
      }
    }
    for (int i = 0; i < ready.size(); i++) {
      if (i > 0 && ready.get(i).watermarkAdvances() != ready.get(i - 1).watermarkAdvances()) {
        closeBundle();
      }
      send(ready.get(i).value());
    }
  }

  @Override
  public void advancePortWatermark(int port, long watermark) throws Exception {
    if (port == 0) {
      watermarkAdvances++;
    } else {
      closeBundle();
      sideInputs.advanceWatermark(port - 1, watermark);
      releaseHeld();
    }
  }

  @Override
  public void finishBundle() throws Exception {
    closeBundle();
  }

  // ---------------------------------------------------------------- time

  @Override
  public void advanceWatermark(long watermark) throws Exception {
    closeBundle();
    if (watermark <= inputWatermark) {
      return;
    }
    inputWatermark = watermark;
    if (keyed == null) {
      return;
    }
    if (timeSorted != null) {
      List<WindowedValue<?>> released = new ArrayList<>();
      synchronized (lock) {
        timeSorted.releaseBefore(
            sortedFrontier(watermark), (key, element) -> released.add(element));
      }
      for (WindowedValue<?> element : released) {
        send(element);
      }
      closeBundle();
    }
    // Timers fire in timestamp order, one timestamp per remote bundle: a timer that a callback
    // sets earlier than one already due must fire first, and the runner learns of it only when
    // the bundle that set it has ended. Fire until nothing is due.
    long bound = io.arcon.runner.operators.Watermarks.firingBound(watermark).getMillis();
    while (true) {
      List<KeyedTimer> due = new ArrayList<>();
      synchronized (lock) {
        keyed.setWatermarks(watermark, new Instant(context.currentProcessingTime()));
        long next = keyed.nextTimer(org.apache.beam.sdk.state.TimeDomain.EVENT_TIME);
        if (next < bound) {
          KeyedTimer t;
          // Up to and including `next`; timers at the end of time need the final bound.
          long upTo =
              next + 1 >= BoundedWindow.TIMESTAMP_MAX_VALUE.getMillis() ? Long.MAX_VALUE : next + 1;
          while ((t = keyed.pollEventTimer(upTo)) != null) {
            due.add(t);
          }
        }
      }
      if (due.isEmpty()) {
        return;
      }
      for (KeyedTimer t : due) {
        fire(t);
      }
      closeBundle();
    }
  }

  /** Time-sorted input is released up to the watermark minus the allowed lateness. */
  private long sortedFrontier(long watermark) {
    if (watermark == Long.MAX_VALUE || watermark == Long.MIN_VALUE) {
      return watermark;
    }
    long frontier = watermark - spec.allowedLateness();
    return frontier > watermark ? Long.MIN_VALUE : frontier;
  }

  @Override
  public long outputWatermarkHold() {
    long hold = Long.MAX_VALUE;
    if (timeSorted != null && timeSorted.size() > 0) {
      hold = Math.min(hold, Math.max(sortedFrontier(inputWatermark), Long.MIN_VALUE + 1));
    }
    for (Held h : held) {
      hold = Math.min(hold, h.value().getTimestamp().getMillis());
    }
    for (Residual r : residuals) {
      hold = Math.min(hold, r.hold());
    }
    if (keyed != null) {
      synchronized (lock) {
        hold = Math.min(hold, keyed.hold(true));
      }
    }
    return hold;
  }

  @Override
  public void advanceProcessingTime(long nowMillis) throws Exception {
    List<Residual> resume = new ArrayList<>();
    residuals.removeIf(
        r -> {
          if (r.resumeAt() <= nowMillis) {
            resume.add(r);
            return true;
          }
          return false;
        });
    for (Residual r : resume) {
      send(r.element());
    }
    if (keyed != null) {
      List<KeyedTimer> due = new ArrayList<>();
      synchronized (lock) {
        keyed.setWatermarks(inputWatermark, new Instant(nowMillis));
        KeyedTimer t;
        while ((t = keyed.pollProcessingTimer(nowMillis)) != null) {
          due.add(t);
        }
      }
      for (KeyedTimer t : due) {
        fire(t);
      }
    }
    if (!resume.isEmpty() || bundle != null) {
      closeBundle();
    }
  }

  @Override
  public long nextProcessingTimeWakeup() {
    long next = Long.MAX_VALUE;
    for (Residual r : residuals) {
      next = Math.min(next, r.resumeAt());
    }
    if (keyed != null) {
      synchronized (lock) {
        next = Math.min(next, keyed.nextProcessingTimeWakeup());
      }
    }
    return next;
  }

  @Override
  public boolean hasPendingWork() {
    return !residuals.isEmpty() || !held.isEmpty();
  }

  @Override
  public void endOfInput() throws Exception {
    closeBundle();
    // Residuals of splittable DoFns are resumed at once: nothing else is left to wait for.
    while (!residuals.isEmpty()) {
      advanceProcessingTime(Long.MAX_VALUE - 1);
      closeBundle();
    }
    releaseHeld();
    closeBundle();
  }

  // ---------------------------------------------------------------- timers

  private void fire(KeyedTimer keyedTimer) throws Exception {
    TimerData data = keyedTimer.timer();
    StateNamespace namespace = data.getNamespace();
    if (!(namespace instanceof StateNamespaces.WindowNamespace<?> windowNamespace)) {
      throw new IllegalStateException("A stage timer outside a window namespace: " + data);
    }
    Object key = spec.keys().decode(keyedTimer.encodedKey());
    Timer<Object> timer =
        Timer.of(
            key,
            data.getTimerId(),
            List.of(windowNamespace.getWindow()),
            data.getTimestamp(),
            data.getOutputTimestamp(),
            PaneInfo.NO_FIRING,
            CausedByDrain.NORMAL);
    ensureBundle();
    KV<String, String> family =
        TimerReceiverFactory.decodeTimerDataTimerId(data.getTimerFamilyId());
    @SuppressWarnings({"unchecked", "rawtypes"})
    FnDataReceiver<Timer<?>> receiver = (FnDataReceiver) bundle.getTimerReceivers().get(family);
    if (receiver == null) {
      throw new IllegalStateException("No timer receiver for " + family + " in " + spec.stepName());
    }
    try {
      receiver.accept(timer);
    } catch (Exception e) {
      throw harnessGone(e);
    }
  }

  // ---------------------------------------------------------------- a harness that went away

  /**
   * {@code e}, told as the loss of the SDK harness when it is one: the harness's connection failed
   * or closed (it died, was killed, or its client went away), which Beam reports only as the gRPC
   * status of the call in flight ("CANCELLED: client cancelled"). Errors the harness reported
   * itself (a user exception) are returned unchanged.
   */
  private Exception harnessGone(Exception e) {
    if (!isConnectionLoss(e)) {
      return e;
    }
    String transforms =
        spec.stage().getTransforms().stream().map(t -> t.getId()).sorted().toList().toString();
    return new IllegalStateException(
        "The SDK harness of "
            + describeEnvironment(spec.stage())
            + " went away (its connection closed) while running stage "
            + spec.stepName()
            + " (transforms "
            + transforms
            + "): "
            + lowLevelCause(e)
            + ". The harness process died, was killed or lost its connection; its own output (the"
            + " job server's log for PROCESS, the client's for LOOPBACK/EXTERNAL) may say why.",
        e);
  }

  private static boolean isConnectionLoss(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException
          || t instanceof org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusException
          // Beam's control client, when the harness ends its control stream.
          || "SDK harness closed connection".equals(t.getMessage())) {
        return true;
      }
    }
    return false;
  }

  private static String lowLevelCause(Throwable e) {
    Throwable last = e;
    while (last.getCause() != null && last.getCause() != last) {
      last = last.getCause();
    }
    return last.getClass().getSimpleName() + ": " + last.getMessage();
  }

  /** {@code environment 'id' (PROCESS, command ...)}, as a user would recognize it. */
  static String describeEnvironment(
      org.apache.beam.sdk.util.construction.graph.ExecutableStage stage) {
    org.apache.beam.model.pipeline.v1.RunnerApi.Environment environment = stage.getEnvironment();
    String id = "";
    for (var entry : stage.getComponents().getEnvironmentsMap().entrySet()) {
      if (entry.getValue().equals(environment)) {
        id = " '" + entry.getKey() + "'";
        break;
      }
    }
    String urn = environment.getUrn();
    String what;
    try {
      if (urn.equals(Environments.PROCESS)) {
        what =
            "PROCESS, command "
                + org.apache.beam.model.pipeline.v1.RunnerApi.ProcessPayload.parseFrom(
                        environment.getPayload())
                    .getCommand();
      } else if (urn.equals(Environments.EXTERNAL)) {
        what =
            "EXTERNAL, the worker at "
                + org.apache.beam.model.pipeline.v1.RunnerApi.ExternalPayload.parseFrom(
                        environment.getPayload())
                    .getEndpoint()
                    .getUrl()
                + " (an SDK's LOOPBACK worker)";
      } else if (urn.equals(Environments.EMBEDDED)) {
        what = "EMBEDDED, the Java SDK harness in the job server's JVM";
      } else {
        what = urn;
      }
    } catch (
        org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.InvalidProtocolBufferException e) {
      what = urn;
    }
    return "environment" + id + " (" + what + ")";
  }

  private void setExpirationTimers(WindowedValue<?> value) {
    Object key = ((KV<?, ?>) value.getValue()).getKey();
    byte[] encoded = spec.keys().encode(key);
    synchronized (lock) {
      keyed.setCurrentKey(encoded, key, value.getTimestamp());
      for (BoundedWindow window : value.getWindows()) {
        for (WindowExpiration expiration : spec.windowExpirations()) {
          Instant end = window.maxTimestamp();
          Instant expiry = end.plus(org.joda.time.Duration.millis(expiration.allowedLateness()));
          if (expiry.isAfter(BoundedWindow.TIMESTAMP_MAX_VALUE) || expiry.isBefore(end)) {
            expiry = BoundedWindow.TIMESTAMP_MAX_VALUE;
          }
          keyed
              .timerInternals()
              .setTimer(
                  TimerData.of(
                      "",
                      TimerReceiverFactory.encodeToTimerDataTimerId(
                          expiration.transformId(), expiration.timerFamily()),
                      StateNamespaces.window((Coder) spec.windowCoder(), window),
                      expiry,
                      end,
                      org.apache.beam.sdk.state.TimeDomain.EVENT_TIME));
        }
      }
    }
  }

  /** Stores the timers the harness set or cleared in the bundle that just ended. */
  private void applyTimers() {
    List<SetTimer> set = drainQueue(timersSet);
    if (set.isEmpty()) {
      return;
    }
    if (keyed == null) {
      throw new IllegalStateException(spec.stepName() + " set a timer but its input is not keyed");
    }
    synchronized (lock) {
      for (SetTimer s : set) {
        Object key = s.timer().getUserKey();
        byte[] encoded = spec.keys().encode(key);
        keyed.setCurrentKey(encoded, key, s.data().getTimestamp());
        if (s.timer().getClearBit()) {
          keyed
              .timerInternals()
              .deleteTimer(
                  s.data().getNamespace(), s.data().getTimerId(), s.data().getTimerFamilyId());
        } else {
          keyed.timerInternals().setTimer(s.data());
        }
      }
    }
  }

  // ---------------------------------------------------------------- splittable DoFns

  /** A splittable DoFn checkpointed itself: what it did not process comes back as residuals. */
  private void onCheckpoint(BeamFnApi.ProcessBundleResponse response) {
    long now = context.currentProcessingTime();
    for (BeamFnApi.DelayedBundleApplication residual : response.getResidualRootsList()) {
      WindowedValue<?> element;
      try {
        element =
            CoderUtils.decodeFromByteArray(
                spec.inputCoder(), residual.getApplication().getElement().toByteArray());
      } catch (Exception e) {
        throw new IllegalStateException("Cannot decode a residual of " + spec.stepName(), e);
      }
      long delay =
          residual.getRequestedTimeDelay().getSeconds() * 1000
              + residual.getRequestedTimeDelay().getNanos() / 1_000_000;
      long hold = element.getTimestamp().getMillis();
      Map<String, org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Timestamp> marks =
          residual.getApplication().getOutputWatermarksMap();
      if (!marks.isEmpty()) {
        hold = Long.MAX_VALUE;
        for (var mark : marks.values()) {
          hold = Math.min(hold, mark.getSeconds() * 1000 + mark.getNanos() / 1_000_000);
        }
      }
      residualsReturned.add(new Residual(element, now + delay, hold));
    }
  }

  // ---------------------------------------------------------------- checkpoints and end

  @Override
  public void snapshotState(OperatorSnapshot snapshot) throws Exception {
    closeBundle();
    if (keyed != null) {
      synchronized (lock) {
        keyed.snapshot(snapshot, inputWatermark);
      }
    }
    StageSnapshot.write(this, snapshot);
  }

  // ---------------------------------------------------------------- what a snapshot keeps

  Spec spec() {
    return spec;
  }

  StageSideInputs sideInputs() {
    return sideInputs;
  }

  List<WindowedValue<?>> heldElements() {
    return held.stream().<WindowedValue<?>>map(Held::value).toList();
  }

  List<Residual> residuals() {
    return List.copyOf(residuals);
  }

  int instanceIndex() {
    return context.instanceIndex();
  }

  int parallelism() {
    return context.parallelism();
  }

  long inputWatermark() {
    return inputWatermark;
  }

  /** Puts back what a checkpoint kept (called from {@link #open}). */
  void restored(
      List<WindowedValue<?>> heldElements, List<Residual> restoredResiduals, long watermark) {
    heldElements.forEach(v -> held.add(new Held(v, watermarkAdvances)));
    residuals.addAll(restoredResiduals);
    if (keyed == null) {
      inputWatermark = Math.max(inputWatermark, watermark);
    }
  }

  @Override
  public void epochCompleted(long epoch) {
    finalizer.finalizeOutstandingBundles();
  }

  @Override
  public StateUsage stateUsage() {
    if (keyed == null) {
      return null;
    }
    synchronized (lock) {
      return keyed.stateUsage();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (bundle != null) {
        RemoteBundle b = bundle;
        bundle = null;
        try {
          b.close();
        } catch (Exception e) {
          // Closing after a failure: the failure that stopped the job is what counts.
        }
      }
    } finally {
      try {
        if (stageBundles != null) {
          stageBundles.close();
        }
      } finally {
        if (keyed != null) {
          keyed.close();
        }
      }
    }
  }

  /**
   * Metrics updates are applied to per-step containers named by the PTRANSFORM label, or the
   * TRANSFORM label the TypeScript SDK (2.49) puts on user metrics instead.
   */
  static final class StageMetrics {
    private static final org.slf4j.Logger LOG =
        org.slf4j.LoggerFactory.getLogger(StageMetrics.class);
    private static final java.util.Set<String> DROPPED_LOGGED =
        java.util.concurrent.ConcurrentHashMap.newKeySet();

    private StageMetrics() {}

    static void report(MetricsContainerStepMap metrics, List<MetricsApi.MonitoringInfo> infos) {
      Map<String, List<MetricsApi.MonitoringInfo>> byStep = new java.util.HashMap<>();
      for (MetricsApi.MonitoringInfo info : infos) {
        String step = info.getLabelsMap().get("PTRANSFORM");
        if (step == null || step.isEmpty()) {
          step = info.getLabelsMap().get("TRANSFORM");
          if (step != null && !step.isEmpty()) {
            // Beam's containers read the step from PTRANSFORM.
            info = info.toBuilder().putLabels("PTRANSFORM", step).removeLabels("TRANSFORM").build();
          }
        }
        if (step != null && !step.isEmpty()) {
          byStep.computeIfAbsent(step, s -> new ArrayList<>()).add(info);
        } else if (DROPPED_LOGGED.add(info.getUrn())) {
          // A metric of no transform has no step to go to; said once per URN. PCollection
          // figures (element counts, sizes) are expected to be such; anything else is news.
          boolean pcollection = info.getLabelsMap().containsKey("PCOLLECTION");
          (pcollection ? LOG.atDebug() : LOG.atInfo())
              .log(
                  "Monitoring infos {} with labels {} name no transform (no PTRANSFORM or TRANSFORM"
                      + " label) and are not reported in the job's metrics; said once per URN",
                  info.getUrn(),
                  info.getLabelsMap().keySet());
        }
      }
      synchronized (metrics) {
        byStep.forEach((step, list) -> metrics.getContainer(step).update(list));
      }
    }
  }
}
