package io.arcon.examples;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.StreamingOptions;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Streaming: clicks from an unbounded {@link ClickSource} are summed per event-time fixed window,
 * with early (processing-time) firings while a window is open, the on-time firing when the
 * watermark passes its end, and late firings for clicks that arrive behind the watermark but within
 * the allowed lateness. Panes accumulate, so each pane carries the window's total so far and the
 * last pane the final total.
 *
 * <p>Each pane is printed (and written to {@code --output} if given) as one line:
 *
 * <pre>
 * window=[2026-01-01T00:00:00.000Z..2026-01-01T00:00:10.000Z) pane=1 timing=ON_TIME last=false clicks=100 points=547
 * </pre>
 */
public final class StreamingClicks {

  private StreamingClicks() {}

  /** Options of the streaming example. */
  public interface Options extends StreamingOptions {
    @Description("Clicks to generate before the source ends (its watermark then goes to infinity)")
    @Default.Long(3_000)
    long getMaxEvents();

    void setMaxEvents(long value);

    @Description("Wall-clock rate of the source in clicks per second; 0 = as fast as possible")
    @Default.Double(500)
    double getEventsPerSecond();

    void setEventsPerSecond(double value);

    @Description("Event time between consecutive clicks, in milliseconds")
    @Default.Long(100)
    long getEventSpacingMillis();

    void setEventSpacingMillis(long value);

    @Description("Number of distinct users")
    @Default.Integer(20)
    int getUsers();

    void setUsers(int value);

    @Description("Every n-th click is delayed by --lateByMillis of event time; 0 = none")
    @Default.Long(25)
    long getLateEvery();

    void setLateEvery(long value);

    @Description("How far behind its neighbours a delayed click's event time lies, in ms")
    @Default.Long(15_000)
    long getLateByMillis();

    void setLateByMillis(long value);

    @Description("Length of the event-time fixed windows, in seconds")
    @Default.Long(10)
    long getWindowSeconds();

    void setWindowSeconds(long value);

    @Description("Processing-time delay after a pane's first click before an early firing, in ms")
    @Default.Long(500)
    long getEarlyFiringMillis();

    void setEarlyFiringMillis(long value);

    @Description(
        "Allowed lateness in seconds; clicks later than this behind the watermark are dropped")
    @Default.Long(30)
    long getAllowedLatenessSeconds();

    void setAllowedLatenessSeconds(long value);

    @Description("If set, also write the pane lines as windowed text files with this prefix")
    @Nullable String getOutput();

    void setOutput(@Nullable String value);
  }

  /** Sums {@code (clicks, points)} of the click points in a pane. */
  static class CountAndSum extends Combine.CombineFn<Long, KV<Long, Long>, KV<Long, Long>> {
    @Override
    public KV<Long, Long> createAccumulator() {
      return KV.of(0L, 0L);
    }

    @Override
    public KV<Long, Long> addInput(KV<Long, Long> acc, Long points) {
      return KV.of(acc.getKey() + 1, acc.getValue() + points);
    }

    @Override
    public KV<Long, Long> mergeAccumulators(Iterable<KV<Long, Long>> accumulators) {
      long clicks = 0;
      long points = 0;
      for (KV<Long, Long> acc : accumulators) {
        clicks += acc.getKey();
        points += acc.getValue();
      }
      return KV.of(clicks, points);
    }

    @Override
    public KV<Long, Long> extractOutput(KV<Long, Long> acc) {
      return acc;
    }

    @Override
    public org.apache.beam.sdk.coders.Coder<KV<Long, Long>> getAccumulatorCoder(
        org.apache.beam.sdk.coders.CoderRegistry registry,
        org.apache.beam.sdk.coders.Coder<Long> inputCoder) {
      return KvCoder.of(VarLongCoder.of(), VarLongCoder.of());
    }
  }

  /** Renders one pane of one window as a line; see the class comment for the format. */
  static class FormatPaneFn extends DoFn<KV<Long, Long>, String> {
    private final boolean print;

    FormatPaneFn(boolean print) {
      this.print = print;
    }

    @ProcessElement
    public void processElement(
        @Element KV<Long, Long> totals,
        BoundedWindow window,
        PaneInfo pane,
        OutputReceiver<String> out) {
      IntervalWindow interval = (IntervalWindow) window;
      String line =
          String.format(
              "window=[%s..%s) pane=%d timing=%s last=%s clicks=%d points=%d",
              interval.start(),
              interval.end(),
              pane.getIndex(),
              pane.getTiming(),
              pane.isLast(),
              totals.getKey(),
              totals.getValue());
      if (print) {
        // One line per pane, not per element: a handful per window.
        System.out.println(line);
      }
      out.output(line);
    }
  }

  /** Clicks in, one formatted line per fired pane out. */
  public static class WindowedClickTotals
      extends PTransform<PCollection<KV<String, Long>>, PCollection<String>> {
    private final Options options;
    private final boolean print;

    public WindowedClickTotals(Options options, boolean print) {
      this.options = options;
      this.print = print;
    }

    @Override
    public PCollection<String> expand(PCollection<KV<String, Long>> clicks) {
      return clicks
          .apply(
              "FixedWindowsWithEarlyAndLateFirings",
              Window.<KV<String, Long>>into(
                      FixedWindows.of(Duration.standardSeconds(options.getWindowSeconds())))
                  .triggering(
                      AfterWatermark.pastEndOfWindow()
                          .withEarlyFirings(
                              AfterProcessingTime.pastFirstElementInPane()
                                  .plusDelayOf(Duration.millis(options.getEarlyFiringMillis())))
                          .withLateFirings(AfterPane.elementCountAtLeast(1)))
                  .withAllowedLateness(
                      Duration.standardSeconds(options.getAllowedLatenessSeconds()))
                  .accumulatingFiredPanes())
          .apply("Points", Values.create())
          .apply("CountAndSum", Combine.globally(new CountAndSum()).withoutDefaults())
          .apply("FormatPane", ParDo.of(new FormatPaneFn(print)));
    }
  }

  /** The clicks this run's options describe. */
  public static ClickSpec clickSpec(Options options) {
    return new ClickSpec(
        options.getUsers(),
        Duration.millis(options.getEventSpacingMillis()),
        options.getLateEvery(),
        Duration.millis(options.getLateByMillis()));
  }

  static void validate(Options options) {
    if (options.getWindowSeconds() <= 0) {
      throw new IllegalArgumentException(
          "--windowSeconds must be positive, got " + options.getWindowSeconds());
    }
    if (options.getEarlyFiringMillis() <= 0) {
      throw new IllegalArgumentException(
          "--earlyFiringMillis must be positive, got " + options.getEarlyFiringMillis());
    }
    if (options.getAllowedLatenessSeconds() < 0) {
      throw new IllegalArgumentException(
          "--allowedLatenessSeconds must not be negative, got "
              + options.getAllowedLatenessSeconds());
    }
  }

  /** Adds the whole streaming pipeline to {@code pipeline}. */
  public static void build(Pipeline pipeline, Options options, boolean print) {
    validate(options);
    PCollection<String> panes =
        pipeline
            .apply(
                "ReadClicks",
                Read.from(
                    new ClickSource(
                        clickSpec(options), options.getMaxEvents(), options.getEventsPerSecond())))
            .apply(new WindowedClickTotals(options, print));
    if (options.getOutput() != null) {
      panes
          // Each line already is a pane's total; the file write's own grouping must not
          // accumulate them again, or every later file would repeat the earlier lines.
          .apply("DiscardWrittenPanes", Window.<String>configure().discardingFiredPanes())
          .apply(
              "WritePanes",
              TextIO.write().to(options.getOutput()).withWindowedWrites().withNumShards(1));
    }
  }

  public static void main(String[] args) {
    Options options = PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class);
    options.setStreaming(true);
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, options, true);
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    System.out.println("StreamingClicks " + state);
  }
}
