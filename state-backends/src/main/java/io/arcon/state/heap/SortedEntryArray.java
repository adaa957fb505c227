package io.arcon.state.heap;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;

/**
 * A read-only {@link SortedMap} over a slice of an array of distinct keys already sorted by {@code
 * order}, each with its list (or null for a plain value) in a parallel array.
 *
 * <p>It exists so that {@link HeapIndex} can build its {@link java.util.TreeMap} in linear time:
 * copying a {@code SortedMap} with the same comparator into a new {@code TreeMap} builds the
 * red-black tree directly from the iteration order, without a comparison per key (see {@link
 * SortedKeyArray} for the keys alone).
 */
final class SortedEntryArray extends AbstractMap<byte[], FramedList>
    implements SortedMap<byte[], FramedList> {
  private final byte[][] keys;
  private final FramedList[] lists;
  private final int from;
  private final int to;
  private final Comparator<byte[]> order;

  /**
   * @param keys distinct keys in {@code order}; not copied, so the caller must not change them
   * @param lists the list of each key, null for a plain value; not copied either
   */
  SortedEntryArray(byte[][] keys, FramedList[] lists, Comparator<byte[]> order) {
    this(keys, lists, 0, keys.length, order);
  }

  private SortedEntryArray(
      byte[][] keys, FramedList[] lists, int from, int to, Comparator<byte[]> order) {
    if (keys.length != lists.length) {
      throw new IllegalArgumentException(
          keys.length + " keys but " + lists.length + " lists: one list (or null) per key");
    }
    this.keys = keys;
    this.lists = lists;
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
  public boolean containsKey(Object o) {
    return o instanceof byte[] key && Arrays.binarySearch(keys, from, to, key, order) >= 0;
  }

  @Override
  public FramedList get(Object o) {
    if (!(o instanceof byte[] key)) {
      return null;
    }
    int found = Arrays.binarySearch(keys, from, to, key, order);
    return found >= 0 ? lists[found] : null;
  }

  @Override
  public Set<Entry<byte[], FramedList>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return to - from;
      }

      @Override
      public Iterator<Entry<byte[], FramedList>> iterator() {
        return new Iterator<>() {
          private int next = from;

          @Override
          public boolean hasNext() {
            return next < to;
          }

          @Override
          public Entry<byte[], FramedList> next() {
            if (next >= to) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new SimpleImmutableEntry<>(keys[i], lists[i]);
          }
        };
      }
    };
  }

  @Override
  public SortedMap<byte[], FramedList> subMap(byte[] fromKey, byte[] toKey) {
    if (order.compare(fromKey, toKey) > 0) {
      throw new IllegalArgumentException("subMap: fromKey is after toKey");
    }
    return new SortedEntryArray(keys, lists, lowerBound(fromKey), lowerBound(toKey), order);
  }

  @Override
  public SortedMap<byte[], FramedList> headMap(byte[] toKey) {
    return new SortedEntryArray(keys, lists, from, lowerBound(toKey), order);
  }

  @Override
  public SortedMap<byte[], FramedList> tailMap(byte[] fromKey) {
    return new SortedEntryArray(keys, lists, lowerBound(fromKey), to, order);
  }

  @Override
  public byte[] firstKey() {
    if (from == to) {
      throw new NoSuchElementException();
    }
    return keys[from];
  }

  @Override
  public byte[] lastKey() {
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
