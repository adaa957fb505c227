package io.arcon.tss.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * The value of an {@link OpaqueType}: the encoded bytes (the source of truth) and a readable string
 * for people and SQL (for example the value's {@code toString()}).
 *
 * <p>Equality is by content of the bytes and the readable string, so a diff compares values, not
 * array identities.
 */
public record OpaqueValue(byte[] bytes, String readable) {
  public OpaqueValue {
    Objects.requireNonNull(bytes, "opaque bytes");
    bytes = bytes.clone();
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OpaqueValue other
        && Arrays.equals(bytes, other.bytes)
        && Objects.equals(readable, other.readable);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(bytes) + Objects.hashCode(readable);
  }

  @Override
  public String toString() {
    return "OpaqueValue[" + bytes.length + " bytes, readable=" + readable + "]";
  }
}
