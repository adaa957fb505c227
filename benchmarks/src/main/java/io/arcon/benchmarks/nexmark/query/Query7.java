package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import java.time.Duration;
import java.util.Arrays;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Max;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessAllWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Q7, highest bid: per fixed window, the bids with the highest price (all of them on a tie). Beam
 * computes each window's highest price and joins the bids against it as a windowed side input;
 * Flink aggregates each window's highest bids incrementally over all bids of the window.
 */
public final class Query7 implements NexmarkQuery {

  @Override
  public String description() {
    return "highest bid: the bids with the highest price per fixed window (side input)";
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    PCollection<Bid> bids =
        BeamEvents.bids(events)
            .apply(
                "FixedWindows",
                Window.into(
                    FixedWindows.of(org.joda.time.Duration.millis(config.windowSizeMillis()))));
    PCollectionView<Long> highestPrice =
        bids.apply("Price", MapElements.into(TypeDescriptors.longs()).via(Bid::price))
            .apply(
                "HighestPrice",
                Combine.globally(Max.ofLongs()).withoutDefaults().asSingletonView());
    return bids.apply(
        "BidsAtHighestPrice", ParDo.of(new AtPrice(highestPrice)).withSideInputs(highestPrice));
  }

  /**
   * Keeps the bids at their window's highest price, timestamped at the window's end, when the
   * result is known (as the Flink window's output is).
   */
  private static final class AtPrice extends DoFn<Bid, Bid> {
    private final PCollectionView<Long> highestPrice;

    AtPrice(PCollectionView<Long> highestPrice) {
      this.highestPrice = highestPrice;
    }

    @ProcessElement
    public void process(ProcessContext c, BoundedWindow window) {
      Bid bid = c.element();
      if (bid.price() == c.sideInput(highestPrice)) {
        c.outputWithTimestamp(bid, window.maxTimestamp());
      }
    }
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.bids(events)
        .windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(config.windowSizeMillis())))
        .aggregate(new HighestBids(), new EmitHighestBids())
        .returns(TypeInformation.of(Bid.class))
        .name("BidsAtHighestPrice");
  }

  /** The accumulator of {@link HighestBids}: a Flink POJO (a POJO array field needs no Kryo). */
  public static final class TopBids {
    public long price = Long.MIN_VALUE;
    public Bid[] bids = new Bid[0];
  }

  private static final class HighestBids implements AggregateFunction<Bid, TopBids, Bid[]> {
    @Override
    public TopBids createAccumulator() {
      return new TopBids();
    }

    @Override
    public TopBids add(Bid bid, TopBids top) {
      if (bid.price() > top.price) {
        top.price = bid.price();
        top.bids = new Bid[] {bid};
      } else if (bid.price() == top.price) {
        top.bids = Arrays.copyOf(top.bids, top.bids.length + 1);
        top.bids[top.bids.length - 1] = bid;
      }
      return top;
    }

    @Override
    public Bid[] getResult(TopBids top) {
      return top.bids;
    }

    @Override
    public TopBids merge(TopBids a, TopBids b) {
      for (Bid bid : b.bids) {
        add(bid, a);
      }
      return a;
    }
  }

  private static final class EmitHighestBids
      extends ProcessAllWindowFunction<Bid[], Bid, TimeWindow> {
    @Override
    public void process(Context ctx, Iterable<Bid[]> results, Collector<Bid> out) {
      for (Bid[] bids : results) {
        for (Bid bid : bids) {
          out.collect(bid);
        }
      }
    }
  }
}
