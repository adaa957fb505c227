package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.AuctionBid;
import io.arcon.benchmarks.nexmark.model.CategoryPrice;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.query.winningbids.FlinkWinningBids;
import io.arcon.benchmarks.nexmark.query.winningbids.WinningBids;
import java.time.Duration;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Mean;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Q4, average price per category: the winning bids of closed auctions (WinningBids: custom merging
 * windows in Beam, a keyed co-process function in Flink), then per category and fixed window of
 * closing times, the average winning price.
 */
public final class Query4 implements NexmarkQuery {

  @Override
  public String description() {
    return "average winning price per category, per fixed window of closing times";
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return events
        .apply("WinningBids", new WinningBids(config.maxAuctionDurationMillis()))
        .apply(
            "CategoryPrice",
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                .via((AuctionBid w) -> KV.of(w.auction().category(), w.bid().price())))
        .apply(
            "ClosingWindows",
            Window.into(FixedWindows.of(org.joda.time.Duration.millis(config.windowSizeMillis()))))
        .apply("AveragePerCategory", Mean.perKey())
        .apply("ToCategoryPrice", ParDo.of(new ToCategoryPrice()));
  }

  private static final class ToCategoryPrice extends DoFn<KV<Long, Double>, CategoryPrice> {
    @ProcessElement
    public void process(
        @Element KV<Long, Double> average,
        IntervalWindow window,
        OutputReceiver<CategoryPrice> out) {
      out.output(new CategoryPrice(average.getKey(), window.end().getMillis(), average.getValue()));
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkWinningBids.of(
            FlinkEvents.auctions(events),
            FlinkEvents.bids(events),
            config.maxAuctionDurationMillis())
        .keyBy(w -> w.auction().category(), Types.LONG)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(config.windowSizeMillis())))
        .aggregate(new FlinkAggregates.AverageWinningPrice(), new FlinkCategoryPrice())
        .returns(TypeInformation.of(CategoryPrice.class))
        .name("AveragePerCategory");
  }

  private static final class FlinkCategoryPrice
      extends ProcessWindowFunction<Double, CategoryPrice, Long, TimeWindow> {
    @Override
    public void process(
        Long category, Context ctx, Iterable<Double> averages, Collector<CategoryPrice> out) {
      for (Double average : averages) {
        out.collect(new CategoryPrice(category, ctx.window().getEnd(), average));
      }
    }
  }
}
