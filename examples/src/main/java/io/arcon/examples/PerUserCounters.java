package io.arcon.examples;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;

/**
 * Stateful processing: per user and event-time window, a {@code DoFn} keeps click and point
 * counters in {@link ValueState} and sets an event-time timer for the end of the window; when the
 * watermark passes it, the timer emits the user's totals for that window as one CSV line:
 *
 * <pre>
 * window_start,user,clicks,points
 * 2026-01-01T00:00:00.000Z,user-7,6,31
 * </pre>
 */
public final class PerUserCounters {

  private PerUserCounters() {}

  /** Options of the stateful example. */
  public interface Options extends PipelineOptions {
    @Description("Number of clicks to generate (the clicks of StreamingClicks, as a bounded input)")
    @Default.Long(20_000)
    long getEvents();

    void setEvents(long value);

    @Description("Number of distinct users")
    @Default.Integer(50)
    int getUsers();

    void setUsers(int value);

    @Description("Event time between consecutive clicks, in milliseconds")
    @Default.Long(100)
    long getEventSpacingMillis();

    void setEventSpacingMillis(long value);

    @Description("Length of the event-time fixed windows, in seconds")
    @Default.Long(60)
    long getWindowSeconds();

    void setWindowSeconds(long value);

    @Description("Prefix of the output files")
    @Default.String("/tmp/per-user-counters/out")
    String getOutput();

    void setOutput(String value);
  }

  /** The bounded click input: click {@code i} of the spec, stamped with its event time. */
  static class ToClickFn extends DoFn<Long, KV<String, Long>> {
    private final ClickSpec spec;

    ToClickFn(ClickSpec spec) {
      this.spec = spec;
    }

    @ProcessElement
    public void processElement(@Element Long index, OutputReceiver<KV<String, Long>> out) {
      out.outputWithTimestamp(spec.click(index), spec.eventTime(index));
    }
  }

  /** Counts clicks and sums points per key and window in state; a timer emits them at the end. */
  static class CountPerUserFn extends DoFn<KV<String, Long>, String> {

    @StateId("clicks")
    private final StateSpec<ValueState<Long>> clicksSpec = StateSpecs.value(VarLongCoder.of());

    @StateId("points")
    private final StateSpec<ValueState<Long>> pointsSpec = StateSpecs.value(VarLongCoder.of());

    @TimerId("endOfWindow")
    private final TimerSpec endOfWindowSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    @ProcessElement
    public void processElement(
        @Element KV<String, Long> click,
        BoundedWindow window,
        @StateId("clicks") ValueState<Long> clicks,
        @StateId("points") ValueState<Long> points,
        @TimerId("endOfWindow") Timer endOfWindow) {
      Long clicksSoFar = clicks.read();
      if (clicksSoFar == null) {
        // First click of this key in this window: one timer write per key and window suffices.
        endOfWindow.set(window.maxTimestamp());
        clicksSoFar = 0L;
      }
      Long pointsSoFar = points.read();
      clicks.write(clicksSoFar + 1);
      points.write((pointsSoFar == null ? 0L : pointsSoFar) + click.getValue());
    }

    @OnTimer("endOfWindow")
    public void onEndOfWindow(
        @Key String user,
        BoundedWindow window,
        @StateId("clicks") ValueState<Long> clicks,
        @StateId("points") ValueState<Long> points,
        OutputReceiver<String> out) {
      Long clickCount = clicks.read();
      Long pointSum = points.read();
      if (clickCount == null || pointSum == null) {
        throw new IllegalStateException(
            "Timer fired for user " + user + " in " + window + " without any counted click");
      }
      out.output(
          String.join(
              ",",
              ((IntervalWindow) window).start().toString(),
              user,
              clickCount.toString(),
              pointSum.toString()));
      clicks.clear();
      points.clear();
    }
  }

  /** Timestamped {@code (user, points)} clicks in, one CSV line per user and window out. */
  public static class CountPerUserAndWindow
      extends PTransform<PCollection<KV<String, Long>>, PCollection<String>> {
    private final Duration windowSize;

    public CountPerUserAndWindow(Duration windowSize) {
      this.windowSize = windowSize;
    }

    @Override
    public PCollection<String> expand(PCollection<KV<String, Long>> clicks) {
      return clicks
          .apply("FixedWindows", Window.into(FixedWindows.of(windowSize)))
          .apply("CountPerUser", ParDo.of(new CountPerUserFn()));
    }
  }

  /** The clicks this run's options describe; none are delayed since the input is bounded. */
  public static ClickSpec clickSpec(Options options) {
    return new ClickSpec(
        options.getUsers(), Duration.millis(options.getEventSpacingMillis()), 0, Duration.ZERO);
  }

  /** Adds the whole stateful pipeline to {@code pipeline}. */
  public static void build(Pipeline pipeline, Options options) {
    if (options.getWindowSeconds() <= 0) {
      throw new IllegalArgumentException(
          "--windowSeconds must be positive, got " + options.getWindowSeconds());
    }
    if (options.getEvents() < 0) {
      throw new IllegalArgumentException(
          "--events must not be negative, got " + options.getEvents());
    }
    pipeline
        .apply("Indexes", GenerateSequence.from(0).to(options.getEvents()))
        .apply("ToClicks", ParDo.of(new ToClickFn(clickSpec(options))))
        .apply(new CountPerUserAndWindow(Duration.standardSeconds(options.getWindowSeconds())))
        // The lines are files, not windows: write them all as one global result.
        .apply("Unwindow", Window.into(new GlobalWindows()))
        .apply(
            "Write",
            TextIO.write().to(options.getOutput()).withHeader("window_start,user,clicks,points"));
  }

  public static void main(String[] args) {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, options);
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    System.out.println("PerUserCounters " + state + ": wrote " + options.getOutput() + "-*");
  }
}
