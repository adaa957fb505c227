package io.arcon.runner.translation;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.TestArconRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/** Pipelines the translation tests translate without running them. */
final class TranslationTestPipelines {
  private TranslationTestPipelines() {}

  /** ArconRunner options from {@code args}, at parallelism 1. */
  static ArconPipelineOptions options(String... args) {
    ArconPipelineOptions options =
        PipelineOptionsFactory.fromArgs(args).as(ArconPipelineOptions.class);
    options.setRunner(TestArconRunner.class);
    options.setParallelism(1);
    return options;
  }

  /**
   * One transform of each stateful kind (a ParDo with a timer, a GroupByKey, a lifted Count.perKey,
   * a splittable DoFn), a Combine.PerKey over merging windows (not lifted, so its GroupByKey is the
   * stateful step) and stateless steps around them.
   */
  static Pipeline everyStatefulKind(ArconPipelineOptions options) {
    Pipeline p = Pipeline.create(options);
    PCollection<KV<String, Integer>> input =
        p.apply("Input", Create.of(KV.of("a", 1), KV.of("a", 2), KV.of("b", 5)));
    input
        .apply("Remind", ParDo.of(new Remind()))
        .apply("Format", MapElements.into(TypeDescriptors.strings()).via(s -> s + "!"));
    input.apply("Group", GroupByKey.create());
    input.apply("CountPerKey", Count.perKey());
    input
        .apply("Sessions", Window.into(Sessions.withGapDuration(Duration.standardMinutes(1))))
        .apply("SumPerSession", Combine.perKey(Sum.ofIntegers()));
    p.apply("Sizes", Create.of(3, 4)).apply("CountUp", ParDo.of(new CountUpTo()));
    return p;
  }

  /** Says "end" when the window of a key's element ends: stateful through a timer alone. */
  static final class Remind extends DoFn<KV<String, Integer>, String> {
    @TimerId("end")
    private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(@TimerId("end") Timer end, BoundedWindow window) {
      end.set(window.maxTimestamp());
    }

    @OnTimer("end")
    public void onEnd(OutputReceiver<String> out) {
      out.output("end");
    }
  }

  /** A splittable DoFn emitting 0..n-1 for each n, one claimed offset at a time. */
  static final class CountUpTo extends DoFn<Integer, Integer> {
    @ProcessElement
    public void process(
        RestrictionTracker<OffsetRange, Long> tracker, OutputReceiver<Integer> out) {
      for (long i = tracker.currentRestriction().getFrom(); tracker.tryClaim(i); i++) {
        out.output((int) i);
      }
    }

    @GetInitialRestriction
    public OffsetRange initialRestriction(@Element Integer n) {
      return new OffsetRange(0, n);
    }
  }
}
