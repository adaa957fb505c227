package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * User code of every operator kind reports its metrics to its own step: a ParDo with a side input
 * (the pushback runner), a splittable DoFn (the ProcessFn runner), a stateful ParDo's timers, and a
 * lifted combine's CombineFn on both sides of its shuffle.
 */
class StepMetricsPipelineTest {
  private static final long ELEMENTS = 100;

  static final class WithSideInput extends DoFn<Long, Long> {
    private final Counter processed =
        Metrics.counter(StepMetricsPipelineTest.class, "side.elements");
    private final Counter started = Metrics.counter(StepMetricsPipelineTest.class, "side.started");
    private final Counter finished =
        Metrics.counter(StepMetricsPipelineTest.class, "side.finished");
    private final PCollectionView<Long> side;

    WithSideInput(PCollectionView<Long> side) {
      this.side = side;
    }

    @StartBundle
    public void start() {
      started.inc();
    }

    @ProcessElement
    public void process(ProcessContext c) {
      processed.inc();
      c.output(c.element() + c.sideInput(side));
    }

    @FinishBundle
    public void finish() {
      finished.inc();
    }
  }

  static final class ThreePositions extends DoFn<Long, Long> {
    private final Counter claimed = Metrics.counter(StepMetricsPipelineTest.class, "sdf.claimed");

    @GetInitialRestriction
    public OffsetRange initial(@Element Long element) {
      return new OffsetRange(0, 3);
    }

    @GetRestrictionCoder
    public Coder<OffsetRange> restrictionCoder() {
      return OffsetRange.Coder.of();
    }

    @ProcessElement
    public void process(RestrictionTracker<OffsetRange, Long> tracker, OutputReceiver<Long> out) {
      for (long i = tracker.currentRestriction().getFrom(); tracker.tryClaim(i); i++) {
        claimed.inc();
        out.output(i);
      }
    }
  }

  static final class TimerPerKey extends DoFn<KV<Long, Long>, Long> {
    private final Counter fired = Metrics.counter(StepMetricsPipelineTest.class, "timer.fired");

    @TimerId("t")
    private final TimerSpec spec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(@TimerId("t") Timer timer) {
      timer.set(new Instant(1000));
    }

    @OnTimer("t")
    public void onTimer(@Key Long key, OutputReceiver<Long> out) {
      fired.inc();
      out.output(key);
    }
  }

  static final class CountingSum extends Combine.CombineFn<Long, long[], Long> {
    private final Counter added = Metrics.counter(StepMetricsPipelineTest.class, "combine.added");
    private final Counter extracted =
        Metrics.counter(StepMetricsPipelineTest.class, "combine.extracted");

    @Override
    public long[] createAccumulator() {
      return new long[1];
    }

    @Override
    public long[] addInput(long[] acc, Long input) {
      added.inc();
      acc[0] += input;
      return acc;
    }

    @Override
    public long[] mergeAccumulators(Iterable<long[]> accumulators) {
      long[] merged = new long[1];
      for (long[] acc : accumulators) {
        merged[0] += acc[0];
      }
      return merged;
    }

    @Override
    public Long extractOutput(long[] acc) {
      extracted.inc();
      return acc[0];
    }

    @Override
    public Coder<long[]> getAccumulatorCoder(
        org.apache.beam.sdk.coders.CoderRegistry registry, Coder<Long> inputCoder) {
      return org.apache.beam.sdk.coders.SerializableCoder.of(long[].class);
    }
  }

  @Test
  void userCodeReportsToItsOwnStep() {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(2);
    Pipeline p = Pipeline.create(options);
    PCollection<Long> numbers = p.apply("Numbers", GenerateSequence.from(0).to(ELEMENTS));
    PCollectionView<Long> side =
        p.apply("Side", GenerateSequence.from(7).to(8)).apply(View.asSingleton());
    numbers.apply("AddSide", ParDo.of(new WithSideInput(side)).withSideInputs(side));
    numbers.apply("Split", ParDo.of(new ThreePositions()));
    PCollection<KV<Long, Long>> keyed =
        numbers
            .apply("Key", WithKeys.<Long, Long>of(x -> x % 5).withKeyType(TypeDescriptors.longs()))
            .setCoder(org.apache.beam.sdk.coders.KvCoder.of(VarLongCoder.of(), VarLongCoder.of()));
    keyed.apply("Timers", ParDo.of(new TimerPerKey()));
    keyed.apply("Sum", Combine.perKey(new CountingSum()));
    PipelineResult result = p.run();
    result.waitUntilFinish();

    Map<String, Long> counters = new TreeMap<>();
    String sdfStep = null;
    for (MetricResult<Long> c :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.inNamespace(StepMetricsPipelineTest.class))
                    .build())
            .getCounters()) {
      String step = c.getKey().stepName();
      String name = c.getName().getName();
      if (name.equals("sdf.claimed")) {
        sdfStep = step;
      }
      // The transform the user named; the runner's expansion adds inner steps below it.
      String userStep = step.contains("/") ? step.substring(0, step.indexOf('/')) : step;
      counters.merge(userStep + ":" + name, c.getCommitted(), Long::sum);
    }
    long bundles = counters.getOrDefault("AddSide:side.started", 0L);
    assertTrue(bundles > 0, "bundles of the side-input ParDo: " + counters);
    assertEquals(
        Map.of(
            "AddSide:side.elements", ELEMENTS,
            "AddSide:side.started", bundles,
            "AddSide:side.finished", bundles,
            "Split:sdf.claimed", 3 * ELEMENTS,
            "Timers:timer.fired", 5L,
            "Sum:combine.added", ELEMENTS,
            "Sum:combine.extracted", 5L),
        counters);
    assertTrue(
        sdfStep.endsWith("SplittableParDoViaKeyedWorkItems.ProcessElements"),
        "the splittable DoFn ran in the ProcessFn runner: " + sdfStep);
  }
}
