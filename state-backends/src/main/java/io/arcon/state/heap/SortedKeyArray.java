package io.arcon.state.heap;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SortedSet;

/**
 * A read-only {@link SortedSet} over a slice of an array of distinct keys already sorted by {@code
 * order}.
 *
 * <p>It exists so that {@link HeapIndex} can build its {@link java.util.TreeSet} in linear time:
 * copying a {@code SortedSet} with the same comparator into an empty {@code TreeSet} builds the
 * red-black tree directly from the iteration order, without a comparison per key, whereas adding
 * the keys one by one costs a root-to-leaf descent each.
 */
final class SortedKeyArray extends AbstractSet<byte[]> implements SortedSet<byte[]> {
  private final byte[][] keys;
  private final int from;
  private final int to;
  private final Comparator<byte[]> order;

  /**
   * @param keys distinct keys in {@code order}; not copied, so the caller must not change them
   */
  SortedKeyArray(byte[][] keys, Comparator<byte[]> order) {
    this(keys, 0, keys.length, order);
  }

  private SortedKeyArray(byte[][] keys, int from, int to, Comparator<byte[]> order) {
    this.keys = keys;
    this.from = from;
    this.to = to;
    this.order = order;
  }

  @Override
  public Comparator<byte[]> comparator() {
    return order;
  }

  @Override
  public int size() {
    return to - from;
  }

  @Override
  public boolean contains(Object o) {
    return o instanceof byte[] key && Arrays.binarySearch(keys, from, to, key, order) >= 0;
  }

  @Override
  public Iterator<byte[]> iterator() {
    return new Iterator<>() {
      private int next = from;

      @Override
      public boolean hasNext() {
        return next < to;
      }

      @Override
      public byte[] next() {
        if (next >= to) {
          throw new NoSuchElementException();
        }
        return keys[next++];
      }
    };
  }

  @Override
  public SortedSet<byte[]> subSet(byte[] fromElement, byte[] toElement) {
    if (order.compare(fromElement, toElement) > 0) {
      throw new IllegalArgumentException("subSet: fromElement is after toElement");
    }
    return new SortedKeyArray(keys, lowerBound(fromElement), lowerBound(toElement), order);
  }

  @Override
  public SortedSet<byte[]> headSet(byte[] toElement) {
    return new SortedKeyArray(keys, from, lowerBound(toElement), order);
  }

  @Override
  public SortedSet<byte[]> tailSet(byte[] fromElement) {
    return new SortedKeyArray(keys, lowerBound(fromElement), to, order);
  }

  @Override
  public byte[] first() {
    if (from == to) {
      throw new NoSuchElementException();
    }
    return keys[from];
  }

  @Override
  public byte[] last() {
    if (from == to) {
      throw new NoSuchElementException();
    }
    return keys[to - 1];
  }

  /** The index of the first key in this slice at or after {@code key}. */
  private int lowerBound(byte[] key) {
    int found = Arrays.binarySearch(keys, from, to, key, order);
    return found >= 0 ? found : -found - 1;
  }
}
