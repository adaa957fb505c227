package io.arcon.runner.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.core.DoFnRunner;
import org.apache.beam.runners.core.DoFnRunners;
import org.apache.beam.runners.core.InMemoryStateInternals;
import org.apache.beam.runners.core.InMemoryTimerInternals;
import org.apache.beam.runners.core.NullSideInputReader;
import org.apache.beam.runners.core.StateInternals;
import org.apache.beam.runners.core.StepContext;
import org.apache.beam.runners.core.TimerInternals;
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
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.DoFnSchemaInformation;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.util.WindowedValueMultiReceiver;
import org.apache.beam.sdk.values.CausedByDrain;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real DoFn behind runners-core's simple runner, wrapped by {@link MetricsScopedDoFnRunner}:
 * every call reports into the step's container, and the thread's container is given back after.
 */
class MetricsScopedDoFnRunnerTest {
  private static final TupleTag<String> MAIN = new TupleTag<>("main");

  private final MetricsContainerStepMap stepMap = new MetricsContainerStepMap();
  private final OperatorMetrics metrics = new OperatorMetrics(stepMap, "Step");

  @RegisterExtension final OuterMetricsContainer threadContainer = new OuterMetricsContainer();
  private final MetricsContainerImpl outer = threadContainer.container();

  private final List<String> outputs = new ArrayList<>();

  /** Reports one counter per lifecycle method; fails on the element "boom". */
  static final class Reporting extends DoFn<KV<String, Integer>, String> {
    private final Counter started = Metrics.counter(Reporting.class, "started");
    private final Counter processed = Metrics.counter(Reporting.class, "processed");
    private final Counter fired = Metrics.counter(Reporting.class, "fired");
    private final Counter expired = Metrics.counter(Reporting.class, "expired");
    private final Counter finished = Metrics.counter(Reporting.class, "finished");

    @TimerId("t")
    private final TimerSpec timerSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @StartBundle
    public void start() {
      started.inc();
    }

    @ProcessElement
    public void process(@Element KV<String, Integer> element, OutputReceiver<String> out) {
      processed.inc();
      if (element.getKey().equals("boom")) {
        throw new IllegalStateException("boom");
      }
      out.output(element.getKey());
    }

    @OnTimer("t")
    public void onTimer() {
      fired.inc();
    }

    @OnWindowExpiration
    public void onExpiration() {
      expired.inc();
    }

    @FinishBundle
    public void finish() {
      finished.inc();
    }
  }

  private DoFnRunner<KV<String, Integer>, String> scopedRunner() {
    WindowedValueMultiReceiver receiver =
        new WindowedValueMultiReceiver() {
          @Override
          public <T> void output(TupleTag<T> tag, WindowedValue<T> value) {
            outputs.add((String) value.getValue());
          }
        };
    StateInternals state = InMemoryStateInternals.forKey("k");
    TimerInternals timers = new InMemoryTimerInternals();
    StepContext stepContext =
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
    DoFnRunner<KV<String, Integer>, String> simple =
        DoFnRunners.simpleRunner(
            PipelineOptionsFactory.create(),
            new Reporting(),
            NullSideInputReader.empty(),
            receiver,
            MAIN,
            List.of(),
            stepContext,
            KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()),
            Map.of(MAIN, StringUtf8Coder.of()),
            WindowingStrategy.globalDefault(),
            DoFnSchemaInformation.create(),
            Map.of());
    return metrics.scoped(simple);
  }

  @Test
  void everyCallReportsIntoTheStepAndGivesTheThreadsContainerBack() {
    DoFnRunner<KV<String, Integer>, String> runner = scopedRunner();
    runner.startBundle();
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    runner.processElement(WindowedValues.valueInGlobalWindow(KV.of("a", 1)));
    runner.processElement(WindowedValues.valueInGlobalWindow(KV.of("b", 2)));
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    Instant at = new Instant(5);
    // Timers reach the runner under their declaration's id, as TimerInternals stores them.
    runner.onTimer(
        DoFnSignature.TimerDeclaration.PREFIX + "t",
        "",
        "k",
        GlobalWindow.INSTANCE,
        at,
        at,
        TimeDomain.EVENT_TIME,
        CausedByDrain.NORMAL);
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    runner.onWindowExpiration(GlobalWindow.INSTANCE, at, "k");
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    runner.finishBundle();
    assertSame(outer, MetricsEnvironment.getCurrentContainer());

    assertEquals(List.of("a", "b"), outputs);
    MetricsContainerImpl step = stepMap.getContainer("Step");
    assertEquals(
        Map.of("started", 1L, "processed", 2L, "fired", 1L, "expired", 1L, "finished", 1L),
        Map.of(
            "started", counter(step, "started"),
            "processed", counter(step, "processed"),
            "fired", counter(step, "fired"),
            "expired", counter(step, "expired"),
            "finished", counter(step, "finished")));
    assertEquals(0L, counter(outer, "processed"), "nothing leaks into the thread's container");
  }

  @Test
  void aFailingCallStillGivesTheThreadsContainerBack() {
    DoFnRunner<KV<String, Integer>, String> runner = scopedRunner();
    runner.startBundle();
    RuntimeException e =
        assertThrows(
            RuntimeException.class,
            () -> runner.processElement(WindowedValues.valueInGlobalWindow(KV.of("boom", 0))));
    assertEquals("boom", rootCause(e).getMessage());
    assertSame(outer, MetricsEnvironment.getCurrentContainer());
    assertEquals(1L, counter(stepMap.getContainer("Step"), "processed"));
  }

  @Test
  void getFnIsTheDelegatesFn() {
    DoFnRunner<KV<String, Integer>, String> runner = scopedRunner();
    assertEquals(Reporting.class, runner.getFn().getClass());
  }

  private static Throwable rootCause(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static long counter(MetricsContainerImpl container, String name) {
    return container.getCounter(MetricName.named(Reporting.class, name)).getCumulative();
  }
}
