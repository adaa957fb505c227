package io.arcon.state;

import java.util.List;

/** A key and its stored bytes, as returned by {@link StateTable#scan}. */
public record StateEntry(byte[] key, byte[] value) {

  /** Decodes a list written with {@link StateTable#append} (see {@link ListFraming}). */
  public List<byte[]> elements() {
    return ListFraming.decode(value);
  }
}
