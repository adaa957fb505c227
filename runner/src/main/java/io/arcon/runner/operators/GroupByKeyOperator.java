package io.arcon.runner.operators;

import io.arcon.runner.metrics.OperatorMetrics;
import java.util.Collections;
import java.util.List;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.DoFnRunners;
import org.apache.beam.runners.core.GroupAlsoByWindowViaWindowSetNewDoFn;
import org.apache.beam.runners.core.KeyedWorkItem;
import org.apache.beam.runners.core.KeyedWorkItems;
import org.apache.beam.runners.core.NullSideInputReader;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.runners.core.SystemReduceFn;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;

/**
 * GroupByKey (and the merge half of a lifted Combine): runners-core's {@link
 * GroupAlsoByWindowViaWindowSetNewDoFn} with a {@link SystemReduceFn}, i.e. Beam's own windowing,
 * trigger, accumulation and lateness logic, over state and timers in a state backend. Groupings
 * that {@link WatermarkTrigger} describes run as {@link WatermarkTriggerGroupByKeyOperator}
 * instead; {@link #create} picks.
 */
public final class GroupByKeyOperator<K, InT, OutT> extends KeyedGroupingOperator<K, InT, OutT> {

  /** What the operator needs. */
  public record Spec<K, InT, OutT>(
      String stepName,
      PipelineOptions options,
      Coder<K> keyCoder,
      WindowingStrategy<?, ?> windowingStrategy,
      SystemReduceFn<K, InT, ?, OutT, BoundedWindow> reduceFn,
      String stateEngine,
      OperatorMetrics metrics) {}

  private DoFnRunner<KeyedWorkItem<K, InT>, KV<K, OutT>> runner;

  public GroupByKeyOperator(Spec<K, InT, OutT> spec) {
    super(spec);
  }

  /**
   * The grouping operator for {@code spec}: {@link WatermarkTriggerGroupByKeyOperator} where its
   * windowing and trigger allow it, else runners-core's reduce logic.
   */
  public static <K, InT, OutT> KeyedGroupingOperator<K, InT, OutT> create(Spec<K, InT, OutT> spec) {
    return WatermarkTrigger.of(spec.windowingStrategy()).isPresent()
        ? new WatermarkTriggerGroupByKeyOperator<>(spec)
        : new GroupByKeyOperator<>(spec);
  }

  @Override
  protected void openGrouping() {
    WindowingStrategy<?, BoundedWindow> ws = windowingStrategy();
    TupleTag<KV<K, OutT>> mainTag = new TupleTag<>("output");
    WindowedValueMultiReceiver receiver =
        new WindowedValueMultiReceiver() {
          @Override
          @SuppressWarnings("unchecked")
          public <T> void output(TupleTag<T> tag, WindowedValue<T> value) {
            emit((WindowedValue<KV<K, OutT>>) (WindowedValue<?>) value);
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

  @Override
  protected void processKeyedElement(K key, WindowedValue<KV<K, InT>> value) {
    KeyedWorkItem<K, InT> item =
        KeyedWorkItems.elementsWorkItem(key, List.of(value.withValue(value.getValue().getValue())));
    runner.processElement(WindowedValues.valueInGlobalWindow(item));
  }

  @Override
  protected void onTimers(K key, List<TimerData> timers) {
    KeyedWorkItem<K, InT> item = KeyedWorkItems.timersWorkItem(key, timers);
    runner.processElement(WindowedValues.valueInGlobalWindow(item));
  }

  @Override
  public void finishBundle() {
    runner.finishBundle();
    super.finishBundle();
  }
}
