package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** A bid of {@code price} cents on an auction: 46 in every 50 events. */
@DefaultCoder(Bid.BidCoder.class)
public record Bid(long auction, long bidder, long price, long dateTime) implements NexmarkResult {

  /** This bid with another price (Q1's currency conversion). */
  public Bid withPrice(long newPrice) {
    return new Bid(auction, bidder, newPrice, dateTime);
  }

  /**
   * Whether this bid beats {@code other} for an auction: the higher price wins; on equal prices the
   * earlier bid, then the lower bidder id, so every runner picks the same winner.
   */
  public boolean beats(Bid other) {
    if (price != other.price) {
      return price > other.price;
    }
    if (dateTime != other.dateTime) {
      return dateTime < other.dateTime;
    }
    return bidder < other.bidder;
  }

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(3);
    h = Fingerprint.add(h, auction);
    h = Fingerprint.add(h, bidder);
    h = Fingerprint.add(h, price);
    return Fingerprint.add(h, dateTime);
  }

  /** The Beam coder of {@link Bid}. */
  public static final class BidCoder extends FieldCoder<Bid> {
    private static final BidCoder INSTANCE = new BidCoder();

    public static BidCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(Bid.class), INSTANCE);
    }

    @Override
    public void encode(Bid b, OutputStream out) throws IOException {
      writeLong(b.auction, out);
      writeLong(b.bidder, out);
      writeLong(b.price, out);
      writeLong(b.dateTime, out);
    }

    @Override
    public Bid decode(InputStream in) throws IOException {
      return new Bid(readLong(in), readLong(in), readLong(in), readLong(in));
    }
  }
}
