package io.arcon.state;

import java.util.Arrays;

/** Helpers for ordered byte-array keys (unsigned lexicographic order, as RocksDB and LMDB use). */
public final class KeyBytes {
  private KeyBytes() {}

  /** Unsigned lexicographic comparison, the order of every {@link StateTable}. */
  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * The smallest key greater than every key starting with {@code prefix}, or {@code null} when no
   * such key exists (the prefix is empty or all {@code 0xff}).
   */
  public static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if ((prefix[i] & 0xff) != 0xff) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  /** Concatenation of the parts. */
  public static byte[] concat(byte[]... parts) {
    int len = 0;
    for (byte[] p : parts) {
      len += p.length;
    }
    byte[] out = new byte[len];
    int pos = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, pos, p.length);
      pos += p.length;
    }
    return out;
  }
}
