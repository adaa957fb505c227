package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/** Q3's output: a seller from a chosen state and one of their auctions in the chosen category. */
@DefaultCoder(NameCityStateId.NameCityStateIdCoder.class)
public record NameCityStateId(String name, String city, String state, long id)
    implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(12);
    h = Fingerprint.add(h, name);
    h = Fingerprint.add(h, city);
    h = Fingerprint.add(h, state);
    h = Fingerprint.add(h, id);
    return h;
  }

  /** The Beam coder of {@link NameCityStateId}. */
  public static final class NameCityStateIdCoder extends FieldCoder<NameCityStateId> {
    private static final NameCityStateIdCoder INSTANCE = new NameCityStateIdCoder();

    public static NameCityStateIdCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(NameCityStateId.class), INSTANCE);
    }

    @Override
    public void encode(NameCityStateId r, OutputStream out) throws IOException {
      writeString(r.name, out);
      writeString(r.city, out);
      writeString(r.state, out);
      writeLong(r.id, out);
    }

    @Override
    public NameCityStateId decode(InputStream in) throws IOException {
      return new NameCityStateId(readString(in), readString(in), readString(in), readLong(in));
    }
  }
}
