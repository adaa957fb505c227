package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.AuctionCount;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.CannotProvideCoderException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Q5, hot items: per sliding window, the auctions with the most bids (all of them on a tie). Bids
 * are counted per auction and window, then the counts of a window are reduced to their maximum.
 */
public final class Query5 implements NexmarkQuery {

  @Override
  public String description() {
    return "hot items: auctions with the most bids per sliding window";
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return BeamEvents.bids(events)
        .apply("Auction", MapElements.into(TypeDescriptors.longs()).via(Bid::auction))
        .apply(
            "SlidingWindows",
            Window.into(
                SlidingWindows.of(org.joda.time.Duration.millis(config.windowSizeMillis()))
                    .every(org.joda.time.Duration.millis(config.windowPeriodMillis()))))
        .apply("BidsPerAuction", Count.perElement())
        .apply("ToAuctionCount", ParDo.of(new ToAuctionCount()))
        .apply("MostBids", Combine.globally(new MostBids()).withoutDefaults())
        .apply("Leaders", Flatten.iterables());
  }

  private static final class ToAuctionCount extends DoFn<KV<Long, Long>, AuctionCount> {
    @ProcessElement
    public void process(
        @Element KV<Long, Long> count, IntervalWindow window, OutputReceiver<AuctionCount> out) {
      out.output(new AuctionCount(window.end().getMillis(), count.getKey(), count.getValue()));
    }
  }

  /** Keeps the counts that equal the highest count seen. */
  private static final class MostBids
      extends Combine.CombineFn<AuctionCount, List<AuctionCount>, List<AuctionCount>> {
    @Override
    public List<AuctionCount> createAccumulator() {
      return new ArrayList<>();
    }

    @Override
    public List<AuctionCount> addInput(List<AuctionCount> leaders, AuctionCount count) {
      if (leaders.isEmpty() || count.count() > leaders.get(0).count()) {
        leaders.clear();
        leaders.add(count);
      } else if (count.count() == leaders.get(0).count()) {
        leaders.add(count);
      }
      return leaders;
    }

    @Override
    public List<AuctionCount> mergeAccumulators(Iterable<List<AuctionCount>> accumulators) {
      List<AuctionCount> merged = createAccumulator();
      for (List<AuctionCount> leaders : accumulators) {
        for (AuctionCount count : leaders) {
          addInput(merged, count);
        }
      }
      return merged;
    }

    @Override
    public List<AuctionCount> extractOutput(List<AuctionCount> leaders) {
      return leaders;
    }

    @Override
    public Coder<List<AuctionCount>> getAccumulatorCoder(
        CoderRegistry registry, Coder<AuctionCount> inputCoder) {
      return ListCoder.of(inputCoder);
    }

    @Override
    public Coder<List<AuctionCount>> getDefaultOutputCoder(
        CoderRegistry registry, Coder<AuctionCount> inputCoder) throws CannotProvideCoderException {
      return ListCoder.of(inputCoder);
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.bids(events)
        .keyBy(Bid::auction, Types.LONG)
        .window(
            SlidingEventTimeWindows.of(
                Duration.ofMillis(config.windowSizeMillis()),
                Duration.ofMillis(config.windowPeriodMillis())))
        .aggregate(new FlinkAggregates.Count<>(), new FlinkAuctionCount())
        .returns(TypeInformation.of(AuctionCount.class))
        .name("BidsPerAuction")
        .keyBy(AuctionCount::windowEnd, Types.LONG)
        .process(new FlinkMostBids())
        .returns(TypeInformation.of(AuctionCount.class))
        .name("MostBids");
  }

  private static final class FlinkAuctionCount
      extends ProcessWindowFunction<Long, AuctionCount, Long, TimeWindow> {
    @Override
    public void process(
        Long auction, Context ctx, Iterable<Long> counts, Collector<AuctionCount> out) {
      for (Long count : counts) {
        out.collect(new AuctionCount(ctx.window().getEnd(), auction, count));
      }
    }
  }

  /**
   * Keyed by window end: the highest count so far and the auctions that have it, emitted by a timer
   * at the window's last millisecond (the timestamp of the counts, and of Beam's output).
   */
  private static final class FlinkMostBids
      extends KeyedProcessFunction<Long, AuctionCount, AuctionCount> {
    private transient ValueState<Long> highest;
    private transient ListState<AuctionCount> leaders;

    @Override
    public void open(OpenContext openContext) {
      highest = getRuntimeContext().getState(new ValueStateDescriptor<>("highest", Types.LONG));
      leaders =
          getRuntimeContext()
              .getListState(
                  new ListStateDescriptor<>("leaders", TypeInformation.of(AuctionCount.class)));
    }

    @Override
    public void processElement(AuctionCount count, Context ctx, Collector<AuctionCount> out)
        throws Exception {
      Long max = highest.value();
      if (max == null) {
        ctx.timerService().registerEventTimeTimer(count.windowEnd() - 1);
      }
      if (max == null || count.count() > max) {
        highest.update(count.count());
        leaders.update(List.of(count));
      } else if (count.count() == max) {
        leaders.add(count);
      }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<AuctionCount> out)
        throws Exception {
      for (AuctionCount leader : leaders.get()) {
        out.collect(leader);
      }
      highest.clear();
      leaders.clear();
    }
  }
}
