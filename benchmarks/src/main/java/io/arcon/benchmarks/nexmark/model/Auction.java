package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * A new auction: open for bids from {@code dateTime} (inclusive) to {@code expires} (exclusive);
 * its winning bid must reach {@code reserve}. Prices are in cents. Three in every 50 events.
 */
@DefaultCoder(Auction.AuctionCoder.class)
public record Auction(
    long id,
    String itemName,
    String description,
    long initialBid,
    long reserve,
    long dateTime,
    long expires,
    long seller,
    long category)
    implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(2);
    h = Fingerprint.add(h, id);
    h = Fingerprint.add(h, itemName);
    h = Fingerprint.add(h, description);
    h = Fingerprint.add(h, initialBid);
    h = Fingerprint.add(h, reserve);
    h = Fingerprint.add(h, dateTime);
    h = Fingerprint.add(h, expires);
    h = Fingerprint.add(h, seller);
    return Fingerprint.add(h, category);
  }

  /** The Beam coder of {@link Auction}. */
  public static final class AuctionCoder extends FieldCoder<Auction> {
    private static final AuctionCoder INSTANCE = new AuctionCoder();

    public static AuctionCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(Auction.class), INSTANCE);
    }

    @Override
    public void encode(Auction a, OutputStream out) throws IOException {
      writeLong(a.id, out);
      writeString(a.itemName, out);
      writeString(a.description, out);
      writeLong(a.initialBid, out);
      writeLong(a.reserve, out);
      writeLong(a.dateTime, out);
      writeLong(a.expires, out);
      writeLong(a.seller, out);
      writeLong(a.category, out);
    }

    @Override
    public Auction decode(InputStream in) throws IOException {
      return new Auction(
          readLong(in),
          readString(in),
          readString(in),
          readLong(in),
          readLong(in),
          readLong(in),
          readLong(in),
          readLong(in),
          readLong(in));
    }
  }
}
