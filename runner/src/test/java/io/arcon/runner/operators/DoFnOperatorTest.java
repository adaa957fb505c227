package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.metrics.OuterMetricsContainer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.metrics.MetricsContainerImpl;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class DoFnOperatorTest {
  @TempDir Path directory;

  private final MetricsContainerStepMap stepMap = new MetricsContainerStepMap();

  @RegisterExtension final OuterMetricsContainer threadContainer = new OuterMetricsContainer();
  private final MetricsContainerImpl outer = threadContainer.container();

  /** Counts per key in state, and says when the key's timer fires. */
  static final class CountPerKey extends DoFn<KV<String, Integer>, String> {
    private final Counter seen = Metrics.counter(CountPerKey.class, "seen");
    private final Counter fired = Metrics.counter(CountPerKey.class, "fired");

    @StateId("count")
    private final StateSpec<ValueState<Integer>> countSpec = StateSpecs.value(VarIntCoder.of());

    @TimerId("done")
    private final TimerSpec doneSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<String, Integer> element,
        @StateId("count") ValueState<Integer> count,
        @TimerId("done") Timer done,
        OutputReceiver<String> out) {
      seen.inc();
      Integer previous = count.read();
      int n = previous == null ? 1 : previous + 1;
      count.write(n);
      done.set(new Instant(100));
      out.output(element.getKey() + "=" + n);
    }

    @OnTimer("done")
    public void onDone(@Key String key, OutputReceiver<String> out) {
      fired.inc();
      out.output(key + " done");
    }
  }

  /**
   * Elements arrive as the runtime delivers them from a keyed edge: the key's bytes first, then the
   * element without its wrapper. State and timers are per key; what the DoFn reports lands in the
   * step's container, and the thread's container is given back after every call.
   */
  @Test
  void aStatefulParDoKeepsStateUnderTheKeyTheRuntimeSet() throws Exception {
    TupleTag<String> main = new TupleTag<>("main");
    DoFnOperator<KV<String, Integer>, String> op =
        new DoFnOperator<>(
            new DoFnOperator.Spec<>(
                "Count",
                new CountPerKey(),
                PipelineOptionsFactory.create(),
                KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()),
                Map.of(main, StringUtf8Coder.of()),
                main,
                List.of(),
                Map.of(main, 0),
                WindowingStrategy.globalDefault(),
                List.of(),
                Map.of(),
                DoFnSchemaInformation.create(),
                StringUtf8Coder.of(),
                true,
                false,
                "heap",
                new OperatorMetrics(stepMap, "Count").withOutputs(List.of("counts")),
                null));
    TestOperatorContext context = new TestOperatorContext(directory);
    op.open(context);
    try {
      op.startBundle();
      String[] keys = {"a", "b", "a", "b", "a"};
      for (int i = 0; i < keys.length; i++) {
        op.setCurrentKey(CoderUtils.encodeToByteArray(StringUtf8Coder.of(), keys[i]));
        op.processElement(
            0, WindowedValues.timestampedValueInGlobalWindow(KV.of(keys[i], i), new Instant(i)));
        assertSame(outer, MetricsEnvironment.getCurrentContainer());
      }
      op.advanceWatermark(200);
      assertSame(outer, MetricsEnvironment.getCurrentContainer());
      op.finishBundle();
      assertSame(outer, MetricsEnvironment.getCurrentContainer());
    } finally {
      op.close();
    }

    List<String> outputs = new ArrayList<>();
    for (Object element : context.emitted) {
      outputs.add(((WindowedValue<?>) element).getValue().toString());
    }
    assertEquals(List.of("a=1", "b=1", "a=2", "b=2", "a=3", "a done", "b done"), outputs);

    MetricsContainerImpl step = stepMap.getContainer("Count");
    assertEquals(5L, counter(step, "seen"));
    assertEquals(2L, counter(step, "fired"));
    assertEquals(0L, counter(outer, "seen"));
  }

  private static long counter(MetricsContainerImpl container, String name) {
    return container.getCounter(MetricName.named(CountPerKey.class, name)).getCumulative();
  }
}
