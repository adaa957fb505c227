package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Q12's output: the number of bids of a bidder in one processing-time window. Which bids share a
 * window depends on when they were processed, so runs compare only the sum of the counts.
 */
@DefaultCoder(BidsPerWindow.BidsPerWindowCoder.class)
public record BidsPerWindow(long bidder, long bids) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(18);
    h = Fingerprint.add(h, bidder);
    h = Fingerprint.add(h, bids);
    return h;
  }

  @Override
  public long countedBids() {
    return bids;
  }

  /** The Beam coder of {@link BidsPerWindow}. */
  public static final class BidsPerWindowCoder extends FieldCoder<BidsPerWindow> {
    private static final BidsPerWindowCoder INSTANCE = new BidsPerWindowCoder();

    public static BidsPerWindowCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(BidsPerWindow.class), INSTANCE);
    }

    @Override
    public void encode(BidsPerWindow r, OutputStream out) throws IOException {
      writeLong(r.bidder, out);
      writeLong(r.bids, out);
    }

    @Override
    public BidsPerWindow decode(InputStream in) throws IOException {
      return new BidsPerWindow(readLong(in), readLong(in));
    }
  }
}
