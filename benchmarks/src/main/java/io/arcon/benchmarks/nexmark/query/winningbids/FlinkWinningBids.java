package io.arcon.benchmarks.nexmark.query.winningbids;

import io.arcon.benchmarks.nexmark.model.Auction;
import io.arcon.benchmarks.nexmark.model.AuctionBid;
import io.arcon.benchmarks.nexmark.model.Bid;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * WinningBids as a Flink user writes it: auctions and bids connected and keyed by auction id into a
 * keyed co-process function. The auction's best valid bid so far is kept in keyed state and emitted
 * by an event-time timer at the auction's last open millisecond (the timestamp Beam's merged window
 * gives its output). Bids that arrive before their auction wait for it, and are dropped once no
 * auction they could belong to can still arrive (the end of the bid's window on the Beam side).
 */
public final class FlinkWinningBids extends KeyedCoProcessFunction<Long, Auction, Bid, AuctionBid> {
  private final long maxAuctionDurationMillis;
  private transient ValueState<Auction> auction;
  private transient ValueState<Bid> best;
  private transient ListState<Bid> waiting;

  private FlinkWinningBids(long maxAuctionDurationMillis) {
    this.maxAuctionDurationMillis = maxAuctionDurationMillis;
  }

  /** The winning bids of the auctions in {@code auctions} among {@code bids}. */
  public static DataStream<AuctionBid> of(
      DataStream<Auction> auctions, DataStream<Bid> bids, long maxAuctionDurationMillis) {
    return auctions
        .keyBy(Auction::id, Types.LONG)
        .connect(bids.keyBy(Bid::auction, Types.LONG))
        .process(new FlinkWinningBids(maxAuctionDurationMillis))
        .returns(TypeInformation.of(AuctionBid.class))
        .name("WinningBids");
  }

  @Override
  public void open(OpenContext openContext) {
    auction =
        getRuntimeContext()
            .getState(new ValueStateDescriptor<>("auction", TypeInformation.of(Auction.class)));
    best =
        getRuntimeContext()
            .getState(new ValueStateDescriptor<>("best", TypeInformation.of(Bid.class)));
    waiting =
        getRuntimeContext()
            .getListState(new ListStateDescriptor<>("waiting", TypeInformation.of(Bid.class)));
  }

  @Override
  public void processElement1(Auction a, Context ctx, Collector<AuctionBid> out) throws Exception {
    auction.update(a);
    Bid winner = null;
    for (Bid bid : waiting.get()) {
      if (WinningBids.valid(a, bid) && (winner == null || bid.beats(winner))) {
        winner = bid;
      }
    }
    waiting.clear();
    if (winner != null) {
      best.update(winner);
    }
    ctx.timerService().registerEventTimeTimer(a.expires() - 1);
  }

  @Override
  public void processElement2(Bid bid, Context ctx, Collector<AuctionBid> out) throws Exception {
    Auction a = auction.value();
    if (a == null) {
      waiting.add(bid);
      ctx.timerService().registerEventTimeTimer(bid.dateTime() + maxAuctionDurationMillis);
      return;
    }
    if (WinningBids.valid(a, bid)) {
      Bid current = best.value();
      if (current == null || bid.beats(current)) {
        best.update(bid);
      }
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<AuctionBid> out)
      throws Exception {
    Auction a = auction.value();
    if (a != null && timestamp == a.expires() - 1) {
      Bid winner = best.value();
      if (winner != null) {
        out.collect(new AuctionBid(a, winner));
      }
      auction.clear();
      best.clear();
    }
    List<Bid> stillWaiting = new ArrayList<>();
    boolean dropped = false;
    for (Bid bid : waiting.get()) {
      if (bid.dateTime() + maxAuctionDurationMillis > timestamp) {
        stillWaiting.add(bid);
      } else {
        dropped = true;
      }
    }
    if (dropped) {
      waiting.update(stillWaiting);
    }
  }
}
