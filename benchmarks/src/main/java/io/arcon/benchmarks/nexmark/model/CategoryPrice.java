package io.arcon.benchmarks.nexmark.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CoderProvider;
import org.apache.beam.sdk.coders.CoderProviders;
import org.apache.beam.sdk.coders.DefaultCoder;
import org.apache.beam.sdk.values.TypeDescriptor;

/**
 * Q4's output: the average winning price (cents) of a category's auctions that closed in the window
 * ending at {@code windowEnd}.
 */
@DefaultCoder(CategoryPrice.CategoryPriceCoder.class)
public record CategoryPrice(long category, long windowEnd, double averagePrice)
    implements NexmarkResult {

  @Override
  public long fingerprint() {
    long h = Fingerprint.start(13);
    h = Fingerprint.add(h, category);
    h = Fingerprint.add(h, windowEnd);
    h = Fingerprint.add(h, averagePrice);
    return h;
  }

  /** The Beam coder of {@link CategoryPrice}. */
  public static final class CategoryPriceCoder extends FieldCoder<CategoryPrice> {
    private static final CategoryPriceCoder INSTANCE = new CategoryPriceCoder();

    public static CategoryPriceCoder of() {
      return INSTANCE;
    }

    /** How {@code @DefaultCoder} finds this coder. */
    public static CoderProvider getCoderProvider() {
      return CoderProviders.forCoder(TypeDescriptor.of(CategoryPrice.class), INSTANCE);
    }

    @Override
    public void encode(CategoryPrice r, OutputStream out) throws IOException {
      writeLong(r.category, out);
      writeLong(r.windowEnd, out);
      writeDouble(r.averagePrice, out);
    }

    @Override
    public CategoryPrice decode(InputStream in) throws IOException {
      return new CategoryPrice(readLong(in), readLong(in), readDouble(in));
    }
  }
}
