package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Q5's output: an auction with the most bids ({@code count}) in the sliding window ending at {@code
 * windowEnd}.
 */
@DefaultCoder(AuctionCount.AuctionCountCoder.class)
public record AuctionCount(long windowEnd, long auction, long count) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(14);
    h = Fingerprint.add(h, windowEnd);
    h = Fingerprint.add(h, auction);
    h = Fingerprint.add(h, count);
    return h;
  }

  /** The Beam coder of {@link AuctionCount}. */
  public static final class AuctionCountCoder extends FieldCoder<AuctionCount> {
    private static final AuctionCountCoder INSTANCE = new AuctionCountCoder();

    public static AuctionCountCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(AuctionCount.class), INSTANCE);
    }

    @Override
    public void encode(AuctionCount r, OutputStream out) throws IOException {
      writeLong(r.windowEnd, out);
      writeLong(r.auction, out);
      writeLong(r.count, out);
    }

    @Override
    public AuctionCount decode(InputStream in) throws IOException {
      return new AuctionCount(readLong(in), readLong(in), readLong(in));
    }
  }
}
