package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Q6's output: when auction {@code auction} of {@code seller} closes with a winner, the average
 * winning price of the seller's last (up to) 10 won auctions.
 */
@DefaultCoder(SellerPrice.SellerPriceCoder.class)
public record SellerPrice(long seller, long auction, long averagePrice) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(15);
    h = Fingerprint.add(h, seller);
    h = Fingerprint.add(h, auction);
    h = Fingerprint.add(h, averagePrice);
    return h;
  }

  /** The Beam coder of {@link SellerPrice}. */
  public static final class SellerPriceCoder extends FieldCoder<SellerPrice> {
    private static final SellerPriceCoder INSTANCE = new SellerPriceCoder();

    public static SellerPriceCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(SellerPrice.class), INSTANCE);
    }

    @Override
    public void encode(SellerPrice r, OutputStream out) throws IOException {
      writeLong(r.seller, out);
      writeLong(r.auction, out);
      writeLong(r.averagePrice, out);
    }

    @Override
    public SellerPrice decode(InputStream in) throws IOException {
      return new SellerPrice(readLong(in), readLong(in), readLong(in));
    }
  }
}
