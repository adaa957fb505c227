package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** Q2's output: a selected bid's auction and price. */
@DefaultCoder(AuctionPrice.AuctionPriceCoder.class)
public record AuctionPrice(long auction, long price) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(11);
    h = Fingerprint.add(h, auction);
    h = Fingerprint.add(h, price);
    return h;
  }

  /** The Beam coder of {@link AuctionPrice}. */
  public static final class AuctionPriceCoder extends FieldCoder<AuctionPrice> {
    private static final AuctionPriceCoder INSTANCE = new AuctionPriceCoder();

    public static AuctionPriceCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(AuctionPrice.class), INSTANCE);
    }

    @Override
    public void encode(AuctionPrice r, OutputStream out) throws IOException {
      writeLong(r.auction, out);
      writeLong(r.price, out);
    }

    @Override
    public AuctionPrice decode(InputStream in) throws IOException {
      return new AuctionPrice(readLong(in), readLong(in));
    }
  }
}
