package io.arcon.state;

import java.util.Arrays;

/**
 * Orders positions by a primitive sort of packed {@code long}s: each long is an order key in its
 * high bits and the position in its low {@code positionBits}, sign-flipped by the caller so that
 * signed order is the wanted order. Positions whose order keys tie are then ordered by a
 * comparator.
 *
 * <p>Why: a comparator sort of many records reads two of them per comparison, each a cache miss;
 * here each record is read once to pack its key, and only ties are compared as a whole.
 */
public final class PackedOrder {
  /** Runs of ties up to this long are sorted by insertion. */
  private static final int INSERTION_SORT_MAX = 16;

  /** Compares two positions. */
  @FunctionalInterface
  public interface PositionComparator {
    int compare(int a, int b);
  }

  private PackedOrder() {}

  /**
   * Sorts the first {@code count} of {@code packed} in place and returns their positions in order,
   * ties of the order key ordered by {@code ties}.
   */
  public static int[] positions(
      long[] packed, int count, int positionBits, PositionComparator ties) {
    Arrays.sort(packed, 0, count);
    long mask = (1L << positionBits) - 1;
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = (int) (packed[i] & mask);
    }
    for (int start = 0, end; start < count; start = end) {
      long key = packed[start] >>> positionBits;
      end = start + 1;
      while (end < count && packed[end] >>> positionBits == key) {
        end++;
      }
      if (end - start > 1) {
        sortRun(order, start, end, ties);
      }
    }
    return order;
  }

  /** Sorts {@code order[from, to)} by {@code comparator}. */
  public static void sortRun(int[] order, int from, int to, PositionComparator comparator) {
    if (to - from <= INSERTION_SORT_MAX) {
      for (int i = from + 1; i < to; i++) {
        int position = order[i];
        int j = i - 1;
        while (j >= from && comparator.compare(order[j], position) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = position;
      }
      return;
    }
    Integer[] run = new Integer[to - from];
    for (int i = from; i < to; i++) {
      run[i - from] = order[i];
    }
    Arrays.sort(run, comparator::compare);
    for (int i = from; i < to; i++) {
      order[i] = run[i - from];
    }
  }
}
