package io.arcon.runner.operators;

import io.arcon.state.ByteKeyHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Items grouped by their encoded key, keys in the order their first item came and each key's items
 * in the order they came: the due timers of one firing round, which {@link KeyedGroupingOperator}
 * delivers one key at a time, or the elements of a bundle that a merging GroupByKey processes one
 * key at a time. Reused from round to round; not thread-safe.
 *
 * <p>Why not a {@code LinkedHashMap<ByteBuffer, List>}: when a bounded input ends, every window of
 * every key falls due in one round (half a million timers in Nexmark's WinningBids), and {@code
 * ByteBuffer}'s hash of short encoded keys (variable-length longs) collides so often that the map's
 * bins turned into trees; with a map node, a buffer and a list per key the grouping was a fifth of
 * that drain. Here an item is an array slot linked to the next of its key, a key a few ints, and an
 * item of the same key as the one before it (a window's end-of-window and garbage-collection
 * timers, adjacent in firing order; a hot key's elements) is linked without hashing.
 *
 * @param <T> the items
 */
final class GroupedByKey<T> {
  private static final int NONE = -1;

  /** Rounds larger than this give their arrays back afterwards. */
  private static final int KEEP_CAPACITY = 1 << 14;

  private Object[] items = new Object[64];
  private byte[][] itemKeys = new byte[64][];
  private int[] nextOfKey = new int[64];
  private int itemCount;

  /** Per key, in order of arrival: its first and last item and its item count. */
  private int[] firstItem = new int[64];

  private int[] lastItem = new int[64];
  private int[] itemsOfKey = new int[64];

  /** Per key, its place in {@link #places}, so that {@link #clear} empties only those. */
  private int[] placeOfKey = new int[64];

  private int keyCount;

  /** Open addressing: key number + 1 per place (0 empty), and the key bytes' hash. */
  private int[] places = new int[128];

  private int[] placeHashes = new int[128];

  boolean isEmpty() {
    return itemCount == 0;
  }

  /** The number of items held. */
  int size() {
    return itemCount;
  }

  /** Adds {@code item} of the key encoded as {@code key} (retained, not to be changed). */
  void add(byte[] key, T item) {
    int index = itemCount++;
    if (index == items.length) {
      items = Arrays.copyOf(items, index * 2);
      itemKeys = Arrays.copyOf(itemKeys, index * 2);
      nextOfKey = Arrays.copyOf(nextOfKey, index * 2);
    }
    items[index] = item;
    itemKeys[index] = key;
    nextOfKey[index] = NONE;
    int keyIndex;
    byte[] lastKey = keyCount > 0 ? itemKeys[lastItem[keyCount - 1]] : null;
    if (lastKey != null && (lastKey == key || Arrays.equals(lastKey, key))) {
      keyIndex = keyCount - 1;
    } else {
      keyIndex = keyOf(key);
    }
    if (keyIndex == NONE) {
      newKey(key, index);
    } else {
      nextOfKey[lastItem[keyIndex]] = index;
      lastItem[keyIndex] = index;
      itemsOfKey[keyIndex]++;
    }
  }

  /** The number of keys with items. */
  int keys() {
    return keyCount;
  }

  /** The encoded key of key number {@code keyIndex} (as its first item came with it). */
  byte[] keyOf(int keyIndex) {
    return itemKeys[firstItem[keyIndex]];
  }

  /** The last item of key number {@code keyIndex}. */
  @SuppressWarnings("unchecked")
  T lastOf(int keyIndex) {
    return (T) items[lastItem[keyIndex]];
  }

  /** The items of key number {@code keyIndex}, in the order they came. */
  List<T> itemsOf(int keyIndex) {
    return itemsOf(keyIndex, Function.identity());
  }

  /**
   * What {@code part} takes of each item of key number {@code keyIndex}, in the order they came.
   */
  @SuppressWarnings("unchecked")
  <R> List<R> itemsOf(int keyIndex, Function<? super T, R> part) {
    List<R> out = new ArrayList<>(itemsOfKey[keyIndex]);
    for (int i = firstItem[keyIndex]; i != NONE; i = nextOfKey[i]) {
      out.add(part.apply((T) items[i]));
    }
    return out;
  }

  /** Forgets the round, keeping the arrays unless the round was large. */
  void clear() {
    if (items.length > KEEP_CAPACITY) {
      items = new Object[64];
      itemKeys = new byte[64][];
      nextOfKey = new int[64];
      firstItem = new int[64];
      lastItem = new int[64];
      itemsOfKey = new int[64];
      placeOfKey = new int[64];
      places = new int[128];
      placeHashes = new int[128];
    } else {
      Arrays.fill(items, 0, itemCount, null);
      Arrays.fill(itemKeys, 0, itemCount, null);
      for (int k = 0; k < keyCount; k++) {
        places[placeOfKey[k]] = 0;
      }
    }
    itemCount = 0;
    keyCount = 0;
  }

  private int keyOf(byte[] key) {
    int hash = ByteKeyHash.hash(key);
    int mask = places.length - 1;
    for (int i = home(hash, mask); places[i] != 0; i = (i + 1) & mask) {
      int keyIndex = places[i] - 1;
      if (placeHashes[i] == hash && Arrays.equals(itemKeys[firstItem[keyIndex]], key)) {
        return keyIndex;
      }
    }
    return NONE;
  }

  private void newKey(byte[] key, int itemIndex) {
    int keyIndex = keyCount++;
    if (keyIndex == firstItem.length) {
      firstItem = Arrays.copyOf(firstItem, keyIndex * 2);
      lastItem = Arrays.copyOf(lastItem, keyIndex * 2);
      itemsOfKey = Arrays.copyOf(itemsOfKey, keyIndex * 2);
      placeOfKey = Arrays.copyOf(placeOfKey, keyIndex * 2);
    }
    firstItem[keyIndex] = itemIndex;
    lastItem[keyIndex] = itemIndex;
    itemsOfKey[keyIndex] = 1;
    if (2 * keyCount > places.length) {
      grow();
    }
    place(keyIndex, ByteKeyHash.hash(key));
  }

  private void place(int keyIndex, int hash) {
    int mask = places.length - 1;
    int i = home(hash, mask);
    while (places[i] != 0) {
      i = (i + 1) & mask;
    }
    places[i] = keyIndex + 1;
    placeHashes[i] = hash;
    placeOfKey[keyIndex] = i;
  }

  private void grow() {
    int[] oldPlaces = places;
    int[] oldHashes = placeHashes;
    places = new int[oldPlaces.length * 2];
    placeHashes = new int[oldPlaces.length * 2];
    for (int i = 0; i < oldPlaces.length; i++) {
      if (oldPlaces[i] != 0) {
        place(oldPlaces[i] - 1, oldHashes[i]);
      }
    }
  }

  private static int home(int hash, int mask) {
    return (hash ^ (hash >>> 16)) & mask;
  }
}
