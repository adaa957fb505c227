package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** The winning bid of an auction (the WinningBids step of Q4 and Q6). */
@DefaultCoder(AuctionBid.AuctionBidCoder.class)
public record AuctionBid(Auction auction, Bid bid) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(10);
    h = Fingerprint.add(h, auction.fingerprint());
    h = Fingerprint.add(h, bid.fingerprint());
    return h;
  }

  /** The Beam coder of {@link AuctionBid}. */
  public static final class AuctionBidCoder extends FieldCoder<AuctionBid> {
    private static final AuctionBidCoder INSTANCE = new AuctionBidCoder();

    public static AuctionBidCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(AuctionBid.class), INSTANCE);
    }

    @Override
    public void encode(AuctionBid r, OutputStream out) throws IOException {
      Auction.AuctionCoder.of().encode(r.auction, out);
      Bid.BidCoder.of().encode(r.bid, out);
    }

    @Override
    public AuctionBid decode(InputStream in) throws IOException {
      return new AuctionBid(Auction.AuctionCoder.of().decode(in), Bid.BidCoder.of().decode(in));
    }
  }
}
