package io.arcon.runner.state;

import io.arcon.state.StateTable;
import java.io.IOException;
import org.apache.beam.sdk.coders.Coder;

/**
 * Encodes and decodes state values and key suffixes with the StateSpec's coders, through one reused
 * buffer (the owner is single-threaded). Stored values are {@code [updated_at: 8 bytes big-endian
 * epoch millis][value encoded with the coder, nested context]}.
 */
public final class StateCoding {
  public static final int STAMP_BYTES = 8;

  private final OrderedBytes out = new OrderedBytes(256);

  /** {@code [updatedAt][coder(value)]}. */
  <T> byte[] stamped(long updatedAtMillis, Coder<T> coder, T value) {
    return stampedInBuffer(updatedAtMillis, coder, value).toByteArray();
  }

  /**
   * {@code [updatedAt][coder(value)]} in this coding's buffer ({@link OrderedBytes#buffer()}, up to
   * its length), for a table that copies it ({@code StateTable.putCopyOf}); valid until the next
   * use of this coding.
   */
  <T> OrderedBytes stampedInBuffer(long updatedAtMillis, Coder<T> coder, T value) {
    out.reset().writeRawLong(updatedAtMillis);
    encodeInto(coder, value);
    return out;
  }

  /** {@code [updatedAt][8-byte payload]}, used for watermark holds. */
  byte[] stampedLong(long updatedAtMillis, long payload) {
    return out.reset().writeRawLong(updatedAtMillis).writeRawLong(payload).toByteArray();
  }

  /** {@code [updatedAt]} alone, the value of rows whose content is all in the key (sets). */
  byte[] stampOnly(long updatedAtMillis) {
    return out.reset().writeRawLong(updatedAtMillis).toByteArray();
  }

  /** {@code prefix + coder(element)}: a row key whose tail is an encoded element. */
  <T> byte[] keyWithElement(byte[] prefix, Coder<T> coder, T element) {
    out.reset().writeBytes(prefix);
    encodeInto(coder, element);
    return out.toByteArray();
  }

  /** {@code prefix + orderedLong(ts)}: a row key whose tail is a timestamp. */
  byte[] keyWithTimestamp(byte[] prefix, long millis) {
    return out.reset().writeBytes(prefix).writeOrderedLong(millis).toByteArray();
  }

  private <T> void encodeInto(Coder<T> coder, T value) {
    try {
      coder.encode(value, out);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Could not encode state value "
              + value
              + " with coder "
              + coder
              + ": check that the StateSpec's coder matches the values written to the state",
          e);
    }
  }

  /** The updated_at of a stored value, in epoch millis. */
  public static long updatedAt(byte[] stored) {
    return OrderedBytes.readRawLong(stored, 0);
  }

  /** Decodes the value of a stamped row. */
  public static <T> T decodeStamped(Coder<T> coder, byte[] stored) {
    return decode(coder, stored, STAMP_BYTES);
  }

  /**
   * Decodes the value of a stamped row where it lies ({@link StateTable#get(byte[],
   * StateTable.ValueDecoder)}), so that a read allocates no copy of the row.
   */
  static <T> StateTable.ValueDecoder<T> stampedDecoder(Coder<T> coder) {
    return (bytes, offset, length) ->
        decode(coder, new ByteArrayInput(bytes, offset + STAMP_BYTES, offset + length));
  }

  /** Decodes {@code bytes[offset..]} with the coder. */
  public static <T> T decode(Coder<T> coder, byte[] bytes, int offset) {
    return decode(coder, new ByteArrayInput(bytes, offset));
  }

  private static <T> T decode(Coder<T> coder, ByteArrayInput input) {
    try {
      return coder.decode(input);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "Could not decode stored state with coder "
              + coder
              + ": the state was written with a different coder (was the pipeline's StateSpec"
              + " changed between a snapshot and this restore?)",
          e);
    }
  }
}
