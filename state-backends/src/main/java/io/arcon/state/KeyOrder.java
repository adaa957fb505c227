package io.arcon.state;

import java.util.Arrays;

/**
 * Sorts byte keys into {@link KeyBytes#compare} order without comparing keys for most pairs.
 *
 * <p>Why: a comparator sort of many random keys reads two keys per comparison, each a cache miss.
 * Here every key is read once: the five bytes after the prefix all keys share (a timer table's keys
 * all begin with the same length fields and often the same timestamp) are packed with the key's
 * position into a {@code long}, the longs are sorted as primitives, and only keys whose five bytes
 * tie are compared as a whole.
 */
public final class KeyOrder {
  private static final int PREFIX_BYTES = 5;
  private static final int POSITION_BITS = 64 - 8 * PREFIX_BYTES;
  private static final long POSITION_MASK = (1L << POSITION_BITS) - 1;

  private KeyOrder() {}

  /**
   * The positions {@code 0..count-1} of {@code keys}, ordered so that their keys ascend in unsigned
   * lexicographic order (equal keys in any order).
   */
  public static int[] sortedPositions(byte[][] keys, int count) {
    PackedOrder.PositionComparator byWholeKey = (a, b) -> KeyBytes.compare(keys[a], keys[b]);
    if (count > POSITION_MASK) {
      // Too many rows to pack a position: sort them all by whole key.
      int[] order = new int[count];
      for (int i = 0; i < count; i++) {
        order[i] = i;
      }
      PackedOrder.sortRun(order, 0, count, byWholeKey);
      return order;
    }
    int shared = sharedPrefixLength(keys, count);
    long[] packed = new long[count];
    for (int i = 0; i < count; i++) {
      // Sign flipped so that signed order of the longs is unsigned order of the prefixes.
      packed[i] = ((prefixAfter(keys[i], shared) << POSITION_BITS) | i) ^ Long.MIN_VALUE;
    }
    return PackedOrder.positions(packed, count, POSITION_BITS, byWholeKey);
  }

  /** How many leading bytes every one of the first {@code count} keys shares with the first. */
  private static int sharedPrefixLength(byte[][] keys, int count) {
    if (count == 0) {
      return 0;
    }
    byte[] first = keys[0];
    int shared = first.length;
    for (int i = 1; i < count && shared > 0; i++) {
      int mismatch =
          Arrays.mismatch(first, 0, shared, keys[i], 0, Math.min(shared, keys[i].length));
      if (mismatch >= 0) {
        shared = mismatch;
      } else {
        shared = Math.min(shared, keys[i].length);
      }
    }
    return shared;
  }

  /**
   * Up to {@value #PREFIX_BYTES} bytes of {@code key} from {@code from}, big-endian, zero-padded.
   */
  private static long prefixAfter(byte[] key, int from) {
    long prefix = 0;
    for (int i = 0; i < PREFIX_BYTES; i++) {
      int at = from + i;
      prefix = (prefix << 8) | (at < key.length ? key[at] & 0xFF : 0);
    }
    return prefix;
  }
}
