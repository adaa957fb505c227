package io.arcon.benchmarks.nexmark.query.winningbids;

import io.arcon.benchmarks.nexmark.model.Event;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.transforms.windowing.WindowMappingFn;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * The custom merging window function of WinningBids (as in Beam's Nexmark): every auction gets the
 * window of its open time, every bid a window from its time on, and merging folds each bid whose
 * time lies in its auction's open time into the auction's window. Grouped by auction id, a merged
 * window then holds the auction and all bids made while it was open, and fires when the auction
 * closes; bids outside their auction's time keep their own window and fire with no auction.
 */
public final class AuctionOrBidWindowFn extends WindowFn<KV<Long, Event>, AuctionOrBidWindow> {
  private final long maxAuctionDurationMillis;

  public AuctionOrBidWindowFn(long maxAuctionDurationMillis) {
    this.maxAuctionDurationMillis = maxAuctionDurationMillis;
  }

  @Override
  public Collection<AuctionOrBidWindow> assignWindows(AssignContext c) {
    Event e = c.element().getValue();
    if (e.newAuction() != null) {
      return List.of(
          new AuctionOrBidWindow(
              new Instant(e.newAuction().dateTime()),
              new Instant(e.newAuction().expires()),
              e.newAuction().id(),
              true));
    }
    if (e.bid() == null) {
      throw new IllegalArgumentException(
          "WinningBids windows only auctions and bids, got a person: " + e);
    }
    long time = e.bid().dateTime();
    return List.of(
        new AuctionOrBidWindow(
            new Instant(time),
            new Instant(time + maxAuctionDurationMillis),
            e.bid().auction(),
            false));
  }

  @Override
  public void mergeWindows(MergeContext c) throws Exception {
    Map<Long, List<AuctionOrBidWindow>> auctionWindows = new HashMap<>();
    Map<Long, List<AuctionOrBidWindow>> bidWindows = new HashMap<>();
    for (AuctionOrBidWindow w : c.windows()) {
      (w.isAuctionWindow() ? auctionWindows : bidWindows)
          .computeIfAbsent(w.auction(), id -> new ArrayList<>())
          .add(w);
    }
    for (Map.Entry<Long, List<AuctionOrBidWindow>> auction : auctionWindows.entrySet()) {
      List<AuctionOrBidWindow> bids = bidWindows.getOrDefault(auction.getKey(), List.of());
      for (AuctionOrBidWindow auctionWindow : auction.getValue()) {
        List<AuctionOrBidWindow> merged = new ArrayList<>();
        merged.add(auctionWindow);
        for (AuctionOrBidWindow bid : bids) {
          if (!bid.start().isBefore(auctionWindow.start())
              && bid.start().isBefore(auctionWindow.end())) {
            merged.add(bid);
          }
        }
        if (merged.size() > 1) {
          c.merge(merged, auctionWindow);
        }
      }
    }
  }

  @Override
  public boolean isCompatible(WindowFn<?, ?> other) {
    return other instanceof AuctionOrBidWindowFn o
        && o.maxAuctionDurationMillis == maxAuctionDurationMillis;
  }

  @Override
  public Coder<AuctionOrBidWindow> windowCoder() {
    return AuctionOrBidWindow.Coder.of();
  }

  @Override
  public WindowMappingFn<AuctionOrBidWindow> getDefaultWindowMappingFn() {
    throw new UnsupportedOperationException(
        "AuctionOrBidWindowFn windows cannot be used as a side input");
  }

  @Override
  public boolean assignsToOneWindow() {
    return true;
  }
}
