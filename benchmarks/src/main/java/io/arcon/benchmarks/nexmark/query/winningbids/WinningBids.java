package io.arcon.benchmarks.nexmark.query.winningbids;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.AuctionBid;
import io.arcon.benchmarks.nexmark.model.Bid;
import io.arcon.benchmarks.nexmark.model.Event;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * The Beam WinningBids step of Q4 and Q6: for every auction that closes with a valid bid, the
 * auction and its winning bid, timestamped at the auction's last open millisecond. Auctions and
 * bids are keyed by auction id and grouped in {@link AuctionOrBidWindowFn}'s merging windows.
 */
public final class WinningBids extends PTransform<PCollection<Event>, PCollection<AuctionBid>> {
  private final long maxAuctionDurationMillis;

  public WinningBids(long maxAuctionDurationMillis) {
    this.maxAuctionDurationMillis = maxAuctionDurationMillis;
  }

  /**
   * Whether {@code bid} can win {@code auction}: made while it was open and at least its reserve.
   */
  public static boolean valid(Auction auction, Bid bid) {
    return bid.dateTime() >= auction.dateTime()
        && bid.dateTime() < auction.expires()
        && bid.price() >= auction.reserve();
  }

  @Override
  public PCollection<AuctionBid> expand(PCollection<Event> events) {
    return events
        .apply("ByAuction", ParDo.of(new KeyByAuction()))
        .setCoder(KvCoder.of(VarLongCoder.of(), Event.EventCoder.of()))
        .apply(
            "AuctionOrBidWindows", Window.into(new AuctionOrBidWindowFn(maxAuctionDurationMillis)))
        .apply("GroupByAuction", GroupByKey.create())
        .apply("PickWinner", ParDo.of(new PickWinner()));
  }

  private static final class KeyByAuction extends DoFn<Event, KV<Long, Event>> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<KV<Long, Event>> out) {
      if (e.newAuction() != null) {
        out.output(KV.of(e.newAuction().id(), e));
      } else if (e.bid() != null) {
        out.output(KV.of(e.bid().auction(), e));
      }
    }
  }

  /** In a merged window: the auction, and the best of its valid bids, if it has one. */
  private static final class PickWinner extends DoFn<KV<Long, Iterable<Event>>, AuctionBid> {
    @ProcessElement
    public void process(@Element KV<Long, Iterable<Event>> group, OutputReceiver<AuctionBid> out) {
      Auction auction = null;
      for (Event e : group.getValue()) {
        if (e.newAuction() != null) {
          auction = e.newAuction();
          break;
        }
      }
      if (auction == null) {
        return;
      }
      Bid best = null;
      for (Event e : group.getValue()) {
        Bid bid = e.bid();
        if (bid != null && valid(auction, bid) && (best == null || bid.beats(best))) {
          best = bid;
        }
      }
      if (best != null) {
        out.output(new AuctionBid(auction, best));
      }
    }
  }
}
