package io.arcon.runner.state;

import io.arcon.runtime.graph.KeyExtractor;
import java.nio.charset.StandardCharsets;
import org.apache.beam.sdk.coders.BigEndianIntegerCoder;
import org.apache.beam.sdk.coders.BigEndianLongCoder;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * Encodes a key to the bytes that identify it in routing and in state: exactly {@code
 * CoderUtils.encodeToByteArray(keyCoder, key)} (outer context). That call costs a thread-local
 * stream, its ownership flag and a stream wrapper per key, which is most of a keyed send's time for
 * a {@code Long} key; for Beam's common key coders the same bytes are written here straight into an
 * array of the right size. Other coders go through {@link CoderUtils}.
 *
 * <p>Stateless and thread-safe: one encoder serves every parallel instance of a keyed edge.
 */
@FunctionalInterface
public interface KeyEncoder extends java.io.Serializable {

  byte[] encode(Object key) throws CoderException;

  /** The encoder of {@code keyCoder}'s keys. */
  @SuppressWarnings("unchecked")
  static KeyEncoder of(Coder<?> keyCoder) {
    // Exact classes only: a subclass may encode differently.
    Class<?> type = keyCoder.getClass();
    if (type == VarLongCoder.class) {
      return key -> varLong(nonNull(key, keyCoder, Long.class));
    }
    if (type == VarIntCoder.class) {
      // VarInt writes an int as its unsigned 32-bit value.
      return key -> varLong(Integer.toUnsignedLong(nonNull(key, keyCoder, Integer.class)));
    }
    if (type == StringUtf8Coder.class) {
      return key -> nonNull(key, keyCoder, String.class).getBytes(StandardCharsets.UTF_8);
    }
    if (type == ByteArrayCoder.class) {
      return key -> nonNull(key, keyCoder, byte[].class).clone();
    }
    if (type == BigEndianLongCoder.class) {
      return key -> bigEndian(nonNull(key, keyCoder, Long.class), Long.BYTES);
    }
    if (type == BigEndianIntegerCoder.class) {
      return key -> bigEndian(nonNull(key, keyCoder, Integer.class), Integer.BYTES);
    }
    Coder<Object> generic = (Coder<Object>) keyCoder;
    return key -> CoderUtils.encodeToByteArray(generic, key);
  }

  /**
   * Routes a windowed {@code KV} by its key encoded with {@code keyCoder}: the key extractor of a
   * keyed edge into a GroupByKey or a stateful step.
   */
  static KeyExtractor ofWindowedKv(Coder<?> keyCoder) {
    KeyEncoder encoder = of(keyCoder);
    return element -> encoder.encode(((KV<?, ?>) ((WindowedValue<?>) element).getValue()).getKey());
  }

  private static <T> T nonNull(Object key, Coder<?> coder, Class<T> type) throws CoderException {
    if (key == null) {
      // The message the coder itself would give.
      throw new CoderException("cannot encode a null " + type.getSimpleName() + " with " + coder);
    }
    return type.cast(key);
  }

  /** Beam's unsigned base-128 varint (7 bits per byte, low group first). */
  private static byte[] varLong(long value) {
    int length = 1;
    for (long rest = value >>> 7; rest != 0; rest >>>= 7) {
      length++;
    }
    byte[] out = new byte[length];
    long rest = value;
    for (int i = 0; i < length - 1; i++) {
      out[i] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    out[length - 1] = (byte) rest;
    return out;
  }

  private static byte[] bigEndian(long value, int bytes) {
    byte[] out = new byte[bytes];
    for (int i = bytes - 1; i >= 0; i--) {
      out[i] = (byte) value;
      value >>>= 8;
    }
    return out;
  }
}
