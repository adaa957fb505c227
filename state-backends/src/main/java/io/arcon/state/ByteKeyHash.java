package io.arcon.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Content hash of {@code byte[]} state keys, for hash tables of keys (the heap engine's slab map, a
 * cache of version chains). {@code Arrays.hashCode} will not do: its base-31 polynomial maps keys
 * that differ in a few adjacent bytes (big-endian counters, the usual state key) onto the same
 * 32-bit value by the thousand, and no later mixing can separate equal hashes.
 */
public final class ByteKeyHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteKeyHash() {}

  /**
   * Content hash over 8-byte words, finished with MurmurHash3's 64-bit mix. A tail shorter than a
   * word is read as the key's last 8 bytes (overlapping the previous word) when the key has that
   * many, so no key is read byte by byte except keys shorter than 8 bytes.
   */
  public static int hash(byte[] key) {
    return hash(key, 0, key.length);
  }

  /** {@link #hash(byte[])} of the key {@code bytes[offset, offset + length)}. */
  public static int hash(byte[] bytes, int offset, int length) {
    long h = length * 0x9E3779B97F4A7C15L;
    int end = offset + length;
    int i = offset;
    for (; i + 8 <= end; i += 8) {
      h = round(h, (long) LONGS.get(bytes, i));
    }
    if (i < end) {
      long tail;
      if (length >= 8) {
        tail = (long) LONGS.get(bytes, end - 8);
      } else {
        tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
          tail |= (bytes[i] & 0xffL) << shift;
        }
      }
      h = round(h, tail);
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return (int) (h ^ (h >>> 32));
  }

  private static long round(long h, long word) {
    return Long.rotateLeft(h ^ (word * 0x87C37B91114253D5L), 31) * 0x4CF5AD432745937FL;
  }
}
