package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Q8's output: a person who registered and opened an auction in the same window: their id, name and
 * the auction's reserve.
 */
@DefaultCoder(IdNameReserve.IdNameReserveCoder.class)
public record IdNameReserve(long id, String name, long reserve) implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(16);
    h = Fingerprint.add(h, id);
    h = Fingerprint.add(h, name);
    h = Fingerprint.add(h, reserve);
    return h;
  }

  /** The Beam coder of {@link IdNameReserve}. */
  public static final class IdNameReserveCoder extends FieldCoder<IdNameReserve> {
    private static final IdNameReserveCoder INSTANCE = new IdNameReserveCoder();

    public static IdNameReserveCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(IdNameReserve.class), INSTANCE);
    }

    @Override
    public void encode(IdNameReserve r, OutputStream out) throws IOException {
      writeLong(r.id, out);
      writeString(r.name, out);
      writeLong(r.reserve, out);
    }

    @Override
    public IdNameReserve decode(InputStream in) throws IOException {
      return new IdNameReserve(readLong(in), readString(in), readLong(in));
    }
  }
}
