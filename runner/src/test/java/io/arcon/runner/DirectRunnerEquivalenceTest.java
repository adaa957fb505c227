package io.arcon.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.Trigger;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the same pipelines on ArconRunner and on Beam's DirectRunner and compares everything they
 * output, including window, pane timing and timestamp of every element.
 */
class DirectRunnerEquivalenceTest {
  private static final Map<String, Queue<String>> OUTPUTS = new ConcurrentHashMap<>();

  /** Records each element with its window, timestamp and pane. */
  static final class Record<T> extends DoFn<T, Void> {
    private final String run;

    Record(String run) {
      this.run = run;
    }

    @ProcessElement
    public void process(ProcessContext c, BoundedWindow window) {
      OUTPUTS
          .computeIfAbsent(run, k -> new ConcurrentLinkedQueue<>())
          .add(
              c.element()
                  + " @"
                  + c.timestamp().getMillis()
                  + " "
                  + window
                  + " "
                  + c.pane().getTiming()
                  + (c.pane().isLast() ? " last" : ""));
    }
  }

  static List<TimestampedValue<String>> events() {
    List<TimestampedValue<String>> events = new ArrayList<>();
    String[] users = {"alice", "bob", "carol", "dave"};
    for (int i = 0; i < 400; i++) {
      events.add(TimestampedValue.of(users[(i * 7) % 4], new Instant(1_000L * ((i * 13) % 97))));
    }
    return events;
  }

  static PCollection<String> source(Pipeline p) {
    return p.apply(Create.timestamped(events()));
  }

  static PCollection<String> windowedCountsWithEarlyAndLateFirings(Pipeline p) {
    TestStream<String> stream =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                TimestampedValue.of("a", new Instant(1_000)),
                TimestampedValue.of("a", new Instant(2_000)),
                TimestampedValue.of("b", new Instant(3_000)))
            .advanceWatermarkTo(new Instant(5_000))
            .addElements(TimestampedValue.of("a", new Instant(6_000)))
            .advanceWatermarkTo(new Instant(11_000))
            .addElements(TimestampedValue.of("a", new Instant(4_000))) // late, within lateness
            .advanceWatermarkTo(new Instant(40_000))
            .addElements(TimestampedValue.of("a", new Instant(4_500))) // too late: dropped
            .advanceWatermarkToInfinity();
    return p.apply(stream)
        .apply(
            tenSecondWindowsFiring(
                AfterWatermark.pastEndOfWindow()
                    .withEarlyFirings(AfterPane.elementCountAtLeast(2))
                    .withLateFirings(AfterPane.elementCountAtLeast(1))))
        .apply(Count.perElement())
        .apply(
            MapElements.into(TypeDescriptors.strings())
                .via(kv -> kv.getKey() + "=" + kv.getValue()));
  }

  /**
   * Sums per key under early and late firings by processing time: a combine ArconRunner lifts
   * (partials before the shuffle), whose panes must hold what they hold without lifting.
   */
  static PCollection<String> liftedSumsWithProcessingTimeFirings(Pipeline p) {
    Duration delay = Duration.standardSeconds(5);
    TestStream<String> stream =
        TestStream.create(StringUtf8Coder.of())
            .addElements(
                TimestampedValue.of("a", new Instant(1_000)),
                TimestampedValue.of("bb", new Instant(2_000)),
                TimestampedValue.of("a", new Instant(3_000)))
            .advanceProcessingTime(Duration.standardSeconds(6)) // early panes: a=2, bb=2
            .addElements(
                TimestampedValue.of("a", new Instant(4_000)),
                TimestampedValue.of("ccc", new Instant(12_000)))
            .advanceWatermarkTo(new Instant(11_000)) // on time: a=3, bb=2
            .addElements(TimestampedValue.of("a", new Instant(5_000))) // late, within lateness
            .advanceProcessingTime(Duration.standardSeconds(6)) // late pane a=4, early ccc=3
            .advanceWatermarkTo(new Instant(40_000))
            .addElements(TimestampedValue.of("a", new Instant(6_000))) // too late: dropped
            .advanceWatermarkToInfinity();
    return sumsOfLengthsPerUser(
        p.apply(stream)
            .apply(
                tenSecondWindowsFiring(
                    AfterWatermark.pastEndOfWindow()
                        .withEarlyFirings(
                            AfterProcessingTime.pastFirstElementInPane().plusDelayOf(delay))
                        .withLateFirings(
                            AfterProcessingTime.pastFirstElementInPane().plusDelayOf(delay)))));
  }

  /** 10 s fixed windows fired by {@code trigger}, 20 s allowed lateness, accumulating panes. */
  private static Window<String> tenSecondWindowsFiring(Trigger trigger) {
    return Window.<String>into(FixedWindows.of(Duration.standardSeconds(10)))
        .triggering(trigger)
        .withAllowedLateness(Duration.standardSeconds(20))
        .accumulatingFiredPanes();
  }

  /** {@code user=sum of its names' lengths} per window (a Sum ArconRunner lifts). */
  private static PCollection<String> sumsOfLengthsPerUser(PCollection<String> users) {
    return users
        .apply(
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                .via(u -> KV.of(u, (long) u.length())))
        .apply(Sum.longsPerKey())
        .apply(
            MapElements.into(TypeDescriptors.strings())
                .via(kv -> kv.getKey() + "=" + kv.getValue()));
  }

  static PCollection<String> slidingSums(Pipeline p) {
    return sumsOfLengthsPerUser(
        source(p)
            .apply(
                Window.into(
                    SlidingWindows.of(Duration.standardSeconds(30))
                        .every(Duration.standardSeconds(10)))));
  }

  static PCollection<String> sessions(Pipeline p) {
    return source(p)
        .apply(Window.into(Sessions.withGapDuration(Duration.standardSeconds(3))))
        .apply(
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings()))
                .via(u -> KV.of(u, u)))
        .apply(GroupByKey.create())
        .apply(
            MapElements.into(TypeDescriptors.strings())
                .via(
                    kv -> {
                      int n = 0;
                      for (String ignored : kv.getValue()) {
                        n++;
                      }
                      return kv.getKey() + "x" + n;
                    }));
  }

  /** Each user's share of all events, via a singleton side input. */
  static PCollection<String> sideInputShares(Pipeline p) {
    PCollection<String> users = source(p);
    PCollectionView<Long> total = users.apply(Count.globally()).apply(View.asSingleton());
    return users
        .apply(Count.perElement())
        .apply(ParDo.of(new ShareFn(total)).withSideInputs(total));
  }

  static final class ShareFn extends DoFn<KV<String, Long>, String> {
    private final PCollectionView<Long> total;

    ShareFn(PCollectionView<Long> total) {
      this.total = total;
    }

    @ProcessElement
    public void process(ProcessContext c) {
      c.output(c.element().getKey() + " " + c.element().getValue() + "/" + c.sideInput(total));
    }
  }

  /** Per-key running counts in ValueState, flushed by an event-time timer per window. */
  static PCollection<String> stateAndTimers(Pipeline p) {
    return source(p)
        .apply(Window.into(FixedWindows.of(Duration.standardSeconds(20))))
        .apply(
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                .via(u -> KV.of(u, 1L)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
        .apply(ParDo.of(new CountWithTimer()));
  }

  static final class CountWithTimer extends DoFn<KV<String, Long>, String> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

    @StateId("key")
    private final StateSpec<ValueState<String>> keySpec = StateSpecs.value(StringUtf8Coder.of());

    @TimerId("flush")
    private final TimerSpec flushSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<String, Long> e,
        BoundedWindow window,
        @StateId("count") ValueState<Long> count,
        @StateId("key") ValueState<String> key,
        @TimerId("flush") Timer flush) {
      Long c = count.read();
      count.write((c == null ? 0 : c) + e.getValue());
      key.write(e.getKey());
      flush.set(window.maxTimestamp());
    }

    @OnTimer("flush")
    public void onFlush(
        OnTimerContext ctx,
        @StateId("count") ValueState<Long> count,
        @StateId("key") ValueState<String> key) {
      ctx.output(key.read() + ":" + count.read());
    }
  }

  static final class TotalLengths extends Combine.CombineFn<String, long[], Long> {
    @Override
    public long[] createAccumulator() {
      return new long[1];
    }

    @Override
    public long[] addInput(long[] acc, String input) {
      acc[0] += input.length();
      return acc;
    }

    @Override
    public long[] mergeAccumulators(Iterable<long[]> accs) {
      long[] out = new long[1];
      for (long[] a : accs) {
        out[0] += a[0];
      }
      return out;
    }

    @Override
    public Long extractOutput(long[] acc) {
      return acc[0];
    }
  }

  static PCollection<String> liftedCombineGlobally(Pipeline p) {
    return source(p)
        .apply(Window.into(FixedWindows.of(Duration.standardSeconds(25))))
        .apply(Combine.globally(new TotalLengths()).withoutDefaults())
        .apply(MapElements.into(TypeDescriptors.strings()).via(Object::toString));
  }

  static Stream<Arguments> pipelines() {
    return Stream.<Map.Entry<String, Function<Pipeline, PCollection<String>>>>of(
            Map.entry(
                "early/late firings",
                DirectRunnerEquivalenceTest::windowedCountsWithEarlyAndLateFirings),
            Map.entry(
                "lifted sums, processing-time firings",
                DirectRunnerEquivalenceTest::liftedSumsWithProcessingTimeFirings),
            Map.entry("sliding sums", DirectRunnerEquivalenceTest::slidingSums),
            Map.entry("sessions", DirectRunnerEquivalenceTest::sessions),
            Map.entry("side input", DirectRunnerEquivalenceTest::sideInputShares),
            Map.entry("state and timers", DirectRunnerEquivalenceTest::stateAndTimers),
            Map.entry("lifted combine", DirectRunnerEquivalenceTest::liftedCombineGlobally))
        .map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  private static List<String> run(
      Class<? extends PipelineRunner<?>> runner, Function<Pipeline, PCollection<String>> build) {
    Pipeline p = TestPipelines.create(runner);
    String id = UUID.randomUUID().toString();
    build.apply(p).apply(ParDo.of(new Record<>(id)));
    p.run().waitUntilFinish();
    List<String> out = new ArrayList<>(OUTPUTS.getOrDefault(id, new ConcurrentLinkedQueue<>()));
    Collections.sort(out);
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pipelines")
  void sameOutputAsDirectRunner(String name, Function<Pipeline, PCollection<String>> build) {
    List<String> direct = run(DirectRunner.class, build);
    List<String> arcon = run(ArconRunner.class, build);
    assertFalse(direct.isEmpty(), "the pipeline produces output");
    assertEquals(direct, arcon);
  }
}
