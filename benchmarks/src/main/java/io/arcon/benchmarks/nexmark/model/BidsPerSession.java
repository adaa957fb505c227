package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** Q11's output: the number of bids of a bidder's session, which ended at {@code sessionEnd}. */
@DefaultCoder(BidsPerSession.BidsPerSessionCoder.class)
public record BidsPerSession(long bidder, long sessionEnd, long bids) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(17);
    h = Fingerprint.add(h, bidder);
    h = Fingerprint.add(h, sessionEnd);
    h = Fingerprint.add(h, bids);
    return h;
  }

  /** The Beam coder of {@link BidsPerSession}. */
  public static final class BidsPerSessionCoder extends FieldCoder<BidsPerSession> {
    private static final BidsPerSessionCoder INSTANCE = new BidsPerSessionCoder();

    public static BidsPerSessionCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(BidsPerSession.class), INSTANCE);
    }

    @Override
    public void encode(BidsPerSession r, OutputStream out) throws IOException {
      writeLong(r.bidder, out);
      writeLong(r.sessionEnd, out);
      writeLong(r.bids, out);
    }

    @Override
    public BidsPerSession decode(InputStream in) throws IOException {
      return new BidsPerSession(readLong(in), readLong(in), readLong(in));
    }
  }
}
