package io.arcon.runner.operators;

import io.arcon.runner.state.KeyedTimer;
import io.arcon.state.ByteKeyHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.runners.core.TimerInternals.TimerData;

/**
 * The due timers of one firing round grouped by key, keys in the order their first timer came and
 * each key's timers in the order they came: what {@link KeyedGroupingOperator} delivers, one key at
 * a time. Reused from round to round; not thread-safe.
 *
 * <p>Why not a {@code LinkedHashMap<ByteBuffer, List>}: when a bounded input ends, every window of
 * every key falls due in one round (half a million timers in Nexmark's WinningBids), and {@code
 * ByteBuffer}'s hash of short encoded keys (variable-length longs) collides so often that the map's
 * bins turned into trees; with a map node, a buffer and a list per key the grouping was a fifth of
 * that drain. Here a timer is an array slot linked to the next of its key, a key a few ints, and a
 * timer of the same key as the one before it (a window's end-of-window and garbage-collection
 * timers, adjacent in firing order) is linked without hashing.
 */
final class DueTimersByKey {
  private static final int NONE = -1;

  /** Rounds larger than this give their arrays back afterwards. */
  private static final int KEEP_CAPACITY = 1 << 14;

  private KeyedTimer[] timers = new KeyedTimer[64];
  private int[] nextOfKey = new int[64];
  private int timerCount;

  /** Per key, in order of arrival: its first and last timer and its timer count. */
  private int[] firstTimer = new int[64];

  private int[] lastTimer = new int[64];
  private int[] timersOfKey = new int[64];

  /** Per key, its place in {@link #places}, so that {@link #clear} empties only those. */
  private int[] placeOfKey = new int[64];

  private int keyCount;

  /** Open addressing: key number + 1 per place (0 empty), and the key bytes' hash. */
  private int[] places = new int[128];

  private int[] placeHashes = new int[128];

  boolean isEmpty() {
    return timerCount == 0;
  }

  void add(KeyedTimer timer) {
    int index = timerCount++;
    if (index == timers.length) {
      timers = Arrays.copyOf(timers, index * 2);
      nextOfKey = Arrays.copyOf(nextOfKey, index * 2);
    }
    timers[index] = timer;
    nextOfKey[index] = NONE;
    byte[] key = timer.encodedKey();
    int keyIndex;
    if (keyCount > 0 && Arrays.equals(timers[lastTimer[keyCount - 1]].encodedKey(), key)) {
      keyIndex = keyCount - 1;
    } else {
      keyIndex = keyOf(key);
    }
    if (keyIndex == NONE) {
      newKey(key, index);
    } else {
      nextOfKey[lastTimer[keyIndex]] = index;
      lastTimer[keyIndex] = index;
      timersOfKey[keyIndex]++;
    }
  }

  /** The number of keys with due timers. */
  int keys() {
    return keyCount;
  }

  /** The last timer of key number {@code keyIndex}: its key is the one to make current. */
  KeyedTimer lastTimerOf(int keyIndex) {
    return timers[lastTimer[keyIndex]];
  }

  /** The timers of key number {@code keyIndex}, in the order they came. */
  List<TimerData> timersOf(int keyIndex) {
    List<TimerData> out = new ArrayList<>(timersOfKey[keyIndex]);
    for (int i = firstTimer[keyIndex]; i != NONE; i = nextOfKey[i]) {
      out.add(timers[i].timer());
    }
    return out;
  }

  /** Forgets the round, keeping the arrays unless the round was large. */
  void clear() {
    if (timers.length > KEEP_CAPACITY) {
      timers = new KeyedTimer[64];
      nextOfKey = new int[64];
      firstTimer = new int[64];
      lastTimer = new int[64];
      timersOfKey = new int[64];
      placeOfKey = new int[64];
      places = new int[128];
      placeHashes = new int[128];
    } else {
      Arrays.fill(timers, 0, timerCount, null);
      for (int k = 0; k < keyCount; k++) {
        places[placeOfKey[k]] = 0;
      }
    }
    timerCount = 0;
    keyCount = 0;
  }

  private int keyOf(byte[] key) {
    int hash = ByteKeyHash.hash(key);
    int mask = places.length - 1;
    for (int i = home(hash, mask); places[i] != 0; i = (i + 1) & mask) {
      int keyIndex = places[i] - 1;
      if (placeHashes[i] == hash && Arrays.equals(timers[firstTimer[keyIndex]].encodedKey(), key)) {
        return keyIndex;
      }
    }
    return NONE;
  }

  private void newKey(byte[] key, int timerIndex) {
    int keyIndex = keyCount++;
    if (keyIndex == firstTimer.length) {
      firstTimer = Arrays.copyOf(firstTimer, keyIndex * 2);
      lastTimer = Arrays.copyOf(lastTimer, keyIndex * 2);
      timersOfKey = Arrays.copyOf(timersOfKey, keyIndex * 2);
      placeOfKey = Arrays.copyOf(placeOfKey, keyIndex * 2);
    }
    firstTimer[keyIndex] = timerIndex;
    lastTimer[keyIndex] = timerIndex;
    timersOfKey[keyIndex] = 1;
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
