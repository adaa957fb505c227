package io.arcon.state.heap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Content hash of {@code byte[]} state keys, for {@link SlabHashMap}. {@code Arrays.hashCode} will
 * not do: its base-31 polynomial maps keys that differ in a few adjacent bytes (big-endian
 * counters, the usual state key) onto the same 32-bit value by the thousand, and no later mixing
 * can separate equal hashes.
 */
final class ByteKeyHash {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ByteKeyHash() {}

  /**
   * Content hash over 8-byte words, finished with MurmurHash3's 64-bit mix. A tail shorter than a
   * word is read as the key's last 8 bytes (overlapping the previous word) when the key has that
   * many, so no key is read byte by byte except keys shorter than 8 bytes.
   */
  static int hash(byte[] key) {
    int length = key.length;
    long h = length * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h = round(h, (long) LONGS.get(key, i));
    }
    if (i < length) {
      long tail;
      if (length >= 8) {
        tail = (long) LONGS.get(key, length - 8);
      } else {
        tail = 0;
        for (int shift = 0; i < length; i++, shift += 8) {
          tail |= (key[i] & 0xffL) << shift;
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
