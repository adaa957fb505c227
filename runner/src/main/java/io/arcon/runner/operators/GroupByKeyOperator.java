package io.arcon.runner.operators;

import io.arcon.runner.metrics.ElementCount;
import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.state.KeyedTimer;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.OperatorSnapshot;
import io.arcon.runtime.operator.Output;
import io.arcon.runtime.operator.StateUsage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.DoFnRunners;
import org.apache.beam.runners.core.GroupAlsoByWindowViaWindowSetNewDoFn;
import org.apache.beam.runners.core.KeyedWorkItem;
import org.apache.beam.runners.core.KeyedWorkItems;
import org.apache.beam.runners.core.NullSideInputReader;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;

/**
 * GroupByKey (and the merge half of a lifted Combine): runners-core's {@link
 * GroupAlsoByWindowViaWindowSetNewDoFn} with a {@link SystemReduceFn}, i.e. Beam's own windowing,
 * trigger, accumulation and lateness logic, over state and timers in a state backend.
 */
public final class GroupByKeyOperator<K, InT, OutT> implements Operator {

  /** What the operator needs. */
  public record Spec<K, InT, OutT>(
      String stepName,
      PipelineOptions options,
      Coder<K> keyCoder,
      WindowingStrategy<?, ?> windowingStrategy,
      SystemReduceFn<K, InT, ?, OutT, BoundedWindow> reduceFn,
      String stateEngine,
      OperatorMetrics metrics) {}

  /** How often a synchronized-time timer held back by upstream work is looked at again. */
  private static final long SYNCHRONIZED_RECHECK_MILLIS = 2;

  private final Spec<K, InT, OutT> spec;
  private OperatorContext context;

  /** {@code context}'s processing-time clock, made once rather than per element. */
  private LongSupplier processingClock;

  private KeyedStateContext<K> keyed;
  private byte[] currentKeyBytes;
  private DoFnRunner<KeyedWorkItem<K, InT>, KV<K, OutT>> runner;
  private long inputWatermark = Long.MIN_VALUE;
  private ElementCount[] outputCount;

  public GroupByKeyOperator(Spec<K, InT, OutT> spec) {
    this.spec = spec;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void open(OperatorContext ctx) {
    this.context = ctx;
    this.processingClock = ctx::currentProcessingTime;
    WindowingStrategy<?, BoundedWindow> ws =
        (WindowingStrategy<?, BoundedWindow>) spec.windowingStrategy();
    keyed =
        KeyedStateContext.open(
            spec.stateEngine(), ctx, spec.keyCoder(), ws.getWindowFn().windowCoder());
    inputWatermark = keyed.restoredInputWatermark();
    Output output = ctx.output();
    outputCount = spec.metrics().outputElementCounts(1);
    TupleTag<KV<K, OutT>> mainTag = new TupleTag<>("output");
    WindowedValueMultiReceiver receiver =
        new WindowedValueMultiReceiver() {
          @Override
          public <T> void output(TupleTag<T> tag, WindowedValue<T> value) {
            if (outputCount[0] != null) {
              outputCount[0].increment();
            }
            output.emit(0, value);
          }
        };
    DoFn<KeyedWorkItem<K, InT>, KV<K, OutT>> fn =
        GroupAlsoByWindowViaWindowSetNewDoFn.create(
            ws,
            key -> keyed.stateInternals,
            key -> keyed.timerInternals,
            NullSideInputReader.empty(),
            spec.reduceFn(),
            receiver,
            mainTag);
    StepContext stepContext = new KeyedStepContext(spec.stepName(), keyed, null);
    DoFnRunner<KeyedWorkItem<K, InT>, KV<K, OutT>> simple =
        DoFnRunners.simpleRunner(
            spec.options(),
            fn,
            NullSideInputReader.empty(),
            receiver,
            mainTag,
            Collections.emptyList(),
            stepContext,
            null,
            Collections.emptyMap(),
            ws,
            DoFnSchemaInformation.create(),
            Collections.emptyMap());
    runner =
        spec.metrics().scoped(DoFnRunners.lateDataDroppingRunner(simple, keyed.timerInternals, ws));
  }

  @Override
  public void startBundle() {
    runner.startBundle();
  }

  /** The input crossed a keyed edge: its state and timers are under these bytes. */
  @Override
  public void setCurrentKey(byte[] keyBytes) {
    this.currentKeyBytes = keyBytes;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void processElement(int port, Object element) {
    WindowedValue<KV<K, InT>> value = (WindowedValue<KV<K, InT>>) element;
    K key = value.getValue().getKey();
    keyed.setCurrentKey(currentKeyBytes, key, value.getTimestamp());
    keyed.followProcessingClock(processingClock);
    keyed.setSynchronizedProcessingTime(context.currentSynchronizedProcessingTime());
    KeyedWorkItem<K, InT> item =
        KeyedWorkItems.elementsWorkItem(key, List.of(value.withValue(value.getValue().getValue())));
    runner.processElement(WindowedValues.valueInGlobalWindow(item));
  }

  @Override
  public void advanceWatermark(long watermark) {
    if (watermark <= inputWatermark) {
      return;
    }
    inputWatermark = watermark;
    keyed.setWatermarks(
        watermark,
        new Instant(context.currentProcessingTime()),
        new Instant(context.currentSynchronizedProcessingTime()));
    fireDue(() -> keyed.pollEventTimer(watermark));
  }

  @Override
  public void advanceProcessingTime(long nowMillis) {
    long synchronizedMillis = context.currentSynchronizedProcessingTime();
    keyed.setWatermarks(inputWatermark, new Instant(nowMillis), new Instant(synchronizedMillis));
    // Triggers fire once (synchronized) processing time is strictly after their delay
    // (isAfter), as in runners-core's InMemoryTimerInternals; a timer delivered at exactly its
    // time would be consumed without firing the pane, so only timers before now are due.
    fireDue(() -> keyed.pollProcessingTimer(nowMillis - 1, synchronizedMillis - 1));
  }

  /**
   * Delivers every due timer, all timers of one key in one work item, as runners-core's reduce
   * logic expects: the end-of-window and garbage-collection timers of a window that fall due
   * together must be seen together, or the window fires an extra pane. Timers set while firing that
   * are already due are delivered in a further round.
   */
  private void fireDue(Supplier<KeyedTimer> poll) {
    while (true) {
      LinkedHashMap<ByteBuffer, List<KeyedTimer>> byKey = new LinkedHashMap<>();
      KeyedTimer timer;
      while ((timer = poll.get()) != null) {
        byKey
            .computeIfAbsent(ByteBuffer.wrap(timer.encodedKey()), k -> new ArrayList<>())
            .add(timer);
      }
      if (byKey.isEmpty()) {
        return;
      }
      for (List<KeyedTimer> timers : byKey.values()) {
        K key = keyed.setCurrentKeyForTimer(timers.get(timers.size() - 1));
        List<org.apache.beam.runners.core.TimerInternals.TimerData> data =
            new ArrayList<>(timers.size());
        for (KeyedTimer t : timers) {
          data.add(t.timer());
        }
        KeyedWorkItem<K, InT> item = KeyedWorkItems.timersWorkItem(key, data);
        runner.processElement(WindowedValues.valueInGlobalWindow(item));
      }
    }
  }

  @Override
  public long nextProcessingTimeWakeup() {
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

  @Override
  public void finishBundle() {
    runner.finishBundle();
    OperatorMetrics.flush(outputCount);
  }

  /**
   * Everything the operator keeps between bundles is in its backend: the reduce function's state,
   * holds and timers are Beam state, the runners are stateless between bundles; only the input
   * watermark is a field, and it goes with the snapshot.
   */
  @Override
  public void snapshotState(OperatorSnapshot snapshot) {
    keyed.snapshot(snapshot, inputWatermark);
  }

  @Override
  public StateUsage stateUsage() {
    return keyed == null ? null : keyed.stateUsage();
  }

  @Override
  public void close() {
    if (keyed != null) {
      keyed.close();
    }
  }
}
