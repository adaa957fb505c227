package io.arcon.benchmarks.nexmark.query;

import io.arcon.benchmarks.nexmark.model.AuctionPrice;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Q2, selection: auction and price of the bids on every {@value QueryConfig#AUCTION_SKIP}th
 * auction.
 */
public final class Query2 implements NexmarkQuery {

  @Override
  public String description() {
    return "selection: (auction, price) of bids on auctions with id % 123 == 0";
  }

  public static boolean selected(Bid bid) {
    return bid.auction() % QueryConfig.AUCTION_SKIP == 0;
  }

  @Override
  public PCollection<? extends NexmarkResult> beam(PCollection<Event> events, QueryConfig config) {
    return BeamEvents.bids(events).apply("SelectAuctions", ParDo.of(new Select()));
  }

  @Override
  public DataStream<? extends NexmarkResult> flink(DataStream<Event> events, QueryConfig config) {
    return FlinkEvents.bids(events)
        .filter(Query2::selected)
        .name("SelectAuctions")
        .map(b -> new AuctionPrice(b.auction(), b.price()))
        .returns(TypeInformation.of(AuctionPrice.class))
        .name("AuctionPrice");
  }

  private static final class Select extends DoFn<Bid, AuctionPrice> {
    @ProcessElement
    public void process(@Element Bid b, OutputReceiver<AuctionPrice> out) {
      if (selected(b)) {
        out.output(new AuctionPrice(b.auction(), b.price()));
      }
    }
  }
}
