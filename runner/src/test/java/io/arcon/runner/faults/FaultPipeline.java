package io.arcon.runner.faults;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The streaming pipeline the fault tests break: the {@link EventSource}, a stateless DoFn and the
 * stateful {@link RunningTotals} (both fail where {@link DoFnFaults} plans it), windowed Sum and
 * Count per key, and two windowed text sinks with one shard each:
 *
 * <pre>
 * ReadEvents -> InjectFaults -> Windows -+-> KeyedValues -+-> SumPerKey   -> FormatSums   -+
 *                                        |                +-> CountPerKey -> FormatCounts -+-> WriteAggregates
 *                                        +-> KeyedEvents -> RunningTotals -> WriteTotals
 * </pre>
 *
 * Lines (see {@link ExpectedOutput} for what each should be):
 *
 * <pre>
 * sum key=k3 window=[start,end) pane=0/ON_TIME value=1234
 * count key=k3 window=[start,end) pane=1/LATE value=1
 * totals key=k3 window=[start,end) flush=2 count=57 sum=1234
 * </pre>
 */
public final class FaultPipeline {
  /** File name prefix of the Sum and Count lines. */
  public static final String AGGREGATES = "aggregates";

  /** File name prefix of the running totals' lines. */
  public static final String TOTALS = "totals";

  private FaultPipeline() {}

  /** Adds the pipeline reading {@code stream} and writing under {@code outputDir} to {@code p}. */
  public static void build(Pipeline p, EventStream stream, Path outputDir) {
    PCollection<Event> events =
        p.apply("ReadEvents", Read.from(new EventSource(stream)))
            .apply("InjectFaults", ParDo.of(new InjectFaults()))
            .apply(
                "Windows",
                Window.<Event>into(FixedWindows.of(EventStream.WINDOW))
                    .withAllowedLateness(EventStream.ALLOWED_LATENESS)
                    // The sinks' own GroupByKeys inherit the mode: accumulating there would
                    // rewrite a window's earlier lines into its late files.
                    .discardingFiredPanes());

    PCollection<KV<String, Long>> values =
        events.apply(
            "KeyedValues",
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                .via((Event e) -> KV.of(e.key(), e.value())));
    PCollection<String> sums =
        values
            .apply("SumPerKey", Sum.longsPerKey())
            .apply("FormatSums", ParDo.of(new FormatAggregate("sum")));
    PCollection<String> counts =
        values
            .apply("CountPerKey", Count.perKey())
            .apply("FormatCounts", ParDo.of(new FormatAggregate("count")));
    PCollectionList.of(sums)
        .and(counts)
        .apply("Aggregates", Flatten.pCollections())
        .apply("WriteAggregates", windowedTextFiles(outputDir.resolve(AGGREGATES)));

    events
        .apply(
            "KeyedEvents",
            MapElements.into(
                    TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptor.of(Event.class)))
                .via((Event e) -> KV.of(e.key(), e)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), Event.EventCoder.of()))
        .apply("RunningTotals", ParDo.of(new RunningTotals()))
        .apply("WriteTotals", windowedTextFiles(outputDir.resolve(TOTALS)));
  }

  /** One file per window and pane; one shard, since Beam assigns shards at random. */
  private static TextIO.Write windowedTextFiles(Path prefix) {
    return TextIO.write().to(prefix.toString()).withWindowedWrites().withNumShards(1);
  }

  /** "[start,end)" of an interval window, as both the lines and {@link ExpectedOutput} write it. */
  static String windowText(BoundedWindow window) {
    IntervalWindow w = (IntervalWindow) window;
    return windowText(w.start().getMillis(), w.end().getMillis());
  }

  static String windowText(long startMillis, long endMillis) {
    return "[" + startMillis + "," + endMillis + ")";
  }

  /** Passes events on; fails where {@link DoFnFaults} plans a fault at this site. */
  static final class InjectFaults extends DoFn<Event, Event> {
    /** Instances set up in this JVM: every job attempt sets up one per parallel instance. */
    static final AtomicInteger SETUPS = new AtomicInteger();

    @Setup
    public void setUp() {
      SETUPS.incrementAndGet();
    }

    @ProcessElement
    public void process(@Element Event e, OutputReceiver<Event> out) {
      DoFnFaults.at(DoFnFaults.Site.INJECT_FAULTS, e.slot());
      out.output(e);
    }
  }

  /** Writes an aggregate with its window and pane. */
  static final class FormatAggregate extends DoFn<KV<String, Long>, String> {
    private final String name;

    FormatAggregate(String name) {
      this.name = name;
    }

    @ProcessElement
    public void process(
        @Element KV<String, Long> kv,
        BoundedWindow window,
        PaneInfo pane,
        OutputReceiver<String> out) {
      out.output(
          name
              + " key="
              + kv.getKey()
              + " window="
              + windowText(window)
              + " pane="
              + pane.getIndex()
              + "/"
              + pane.getTiming()
              + " value="
              + kv.getValue());
    }
  }

  /**
   * Per key and window, a running count and sum of the events, flushed by an event-time timer at
   * the end of the window; a late event updates the totals and flushes them again.
   */
  static final class RunningTotals extends DoFn<KV<String, Event>, String> {
    @StateId("count")
    private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value();

    @StateId("sum")
    private final StateSpec<ValueState<Long>> sumSpec = StateSpecs.value();

    @StateId("flushes")
    private final StateSpec<ValueState<Integer>> flushesSpec = StateSpecs.value();

    @StateId("key")
    private final StateSpec<ValueState<String>> keySpec = StateSpecs.value();

    @TimerId("flush")
    private final TimerSpec flushSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void process(
        @Element KV<String, Event> e,
        BoundedWindow window,
        @StateId("count") ValueState<Long> count,
        @StateId("sum") ValueState<Long> sum,
        @StateId("key") ValueState<String> key,
        @TimerId("flush") Timer flush) {
      DoFnFaults.at(DoFnFaults.Site.RUNNING_TOTALS, e.getValue().slot());
      count.write(orZero(count.read()) + 1);
      sum.write(orZero(sum.read()) + e.getValue().value());
      key.write(e.getKey());
      // Behind the watermark (a late event) it fires with the next watermark.
      flush.set(window.maxTimestamp());
    }

    @OnTimer("flush")
    public void onFlush(
        BoundedWindow window,
        @StateId("count") ValueState<Long> count,
        @StateId("sum") ValueState<Long> sum,
        @StateId("flushes") ValueState<Integer> flushes,
        @StateId("key") ValueState<String> key,
        OutputReceiver<String> out) {
      int flush = (flushes.read() == null ? 0 : flushes.read()) + 1;
      flushes.write(flush);
      out.output(
          "totals key="
              + key.read()
              + " window="
              + windowText(window)
              + " flush="
              + flush
              + " count="
              + orZero(count.read())
              + " sum="
              + orZero(sum.read()));
    }

    private static long orZero(Long value) {
      return value == null ? 0 : value;
    }
  }
}
