package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.BidsPerWindow;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.joda.time.Duration;

/**
 * Q12, processing-time windows: per bidder, the bids counted since the bidder's window opened, a
 * window closing a fixed processing time after its first bid; what is left when the input ends is
 * emitted then. Beam: the global window with a repeated processing-time trigger; Flink: a keyed
 * process function with a processing-time timer. The grouping depends on processing speed, so runs
 * are compared by the total of the counts only.
 */
public final class Query12 implements NexmarkQuery {

  @Override
  public String description() {
    return "processing-time windows: bids per bidder per processing-time window";
  }

  @Override
  public boolean outputComparable() {
    return false;
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return BeamEvents.bids(events)
        .apply("Bidder", MapElements.into(TypeDescriptors.longs()).via(Bid::bidder))
        .apply(
            "ProcessingTimeWindows",
            Window.<Long>into(new GlobalWindows())
                .triggering(
                    Repeatedly.forever(
                        AfterProcessingTime.pastFirstElementInPane()
                            .plusDelayOf(Duration.millis(config.processingWindowMillis()))))
                .discardingFiredPanes()
                .withAllowedLateness(Duration.ZERO))
        .apply("BidsPerWindow", Count.perElement())
        .apply(
            "ToBidsPerWindow",
            MapElements.into(TypeDescriptor.of(BidsPerWindow.class))
                .via((KV<Long, Long> c) -> new BidsPerWindow(c.getKey(), c.getValue())));
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.bids(events)
        .keyBy(Bid::bidder, Types.LONG)
        .process(new FlinkBidsPerWindow(config.processingWindowMillis()))
        .returns(TypeInformation.of(BidsPerWindow.class))
        .name("BidsPerWindow");
  }

  /**
   * The count of the bidder's open window; a processing-time timer closes it, and an event-time
   * timer at the end of time (reached when the input ends) flushes what is left.
   */
  private static final class FlinkBidsPerWindow
      extends KeyedProcessFunction<Long, Bid, BidsPerWindow> {
    private final long windowMillis;
    private transient ValueState<Long> count;
    private transient ValueState<Boolean> flushRegistered;

    FlinkBidsPerWindow(long windowMillis) {
      this.windowMillis = windowMillis;
    }

    @Override
    public void open(OpenContext openContext) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
      flushRegistered =
          getRuntimeContext().getState(new ValueStateDescriptor<>("flush", Types.BOOLEAN));
    }

    @Override
    public void processElement(Bid bid, Context ctx, Collector<BidsPerWindow> out)
        throws Exception {
      Long current = count.value();
      if (current == null) {
        ctx.timerService()
            .registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + windowMillis);
        current = 0L;
      }
      count.update(current + 1);
      if (flushRegistered.value() == null) {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        flushRegistered.update(true);
      }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<BidsPerWindow> out)
        throws Exception {
      Long current = count.value();
      if (current != null) {
        out.collect(new BidsPerWindow(ctx.getCurrentKey(), current));
        count.clear();
      }
    }
  }
}
