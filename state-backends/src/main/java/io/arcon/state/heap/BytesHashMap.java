package io.arcon.state.heap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An open-addressing hash map from {@code byte[]} keys (compared by content) to non-null values,
 * with linear probing and backward-shift deletion (no tombstones).
 *
 * <p>It exists because a point lookup at millions of keys is bound by cache misses: the hashes sit
 * in one dense {@code int[]} and each key sits next to its value in one {@code Object[]}, so a hit
 * costs about three misses (hash slot, key/value pair, key bytes), where a {@code TreeMap} walks
 * some 24 levels and a {@code HashMap<wrapper, V>} chases node, wrapper and key.
 */
final class BytesHashMap {
  private static final int MIN_CAPACITY = 16;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int MAX_CAPACITY = 1 << 29; // two table slots per entry must fit an array

  /** Stored hash per slot; 0 marks an empty slot (real hashes are never 0, see {@link #hash}). */
  private int[] hashes;

  /** Key at {@code 2 * slot}, value at {@code 2 * slot + 1}. */
  private Object[] table;

  private int mask;
  private int size;
  private int growAt;

  BytesHashMap() {
    allocate(MIN_CAPACITY);
  }

  int size() {
    return size;
  }

  Object get(byte[] key) {
    int h = hash(key);
    int[] hs = hashes;
    Object[] t = table;
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int stored = hs[slot];
      if (stored == 0) {
        return null;
      }
      if (stored == h && Arrays.equals((byte[]) t[2 * slot], key)) {
        return t[2 * slot + 1];
      }
    }
  }

  /**
   * Maps {@code key} to {@code value} and returns the previous value, or {@code null} when the key
   * is new (then {@code key} itself is retained).
   */
  Object put(byte[] key, Object value) {
    if (value == null) {
      throw new NullPointerException("value");
    }
    int h = hash(key);
    for (int slot = h & mask; ; slot = (slot + 1) & mask) {
      int stored = hashes[slot];
      if (stored == 0) {
        if (size >= growAt) {
          resize(hashes.length * 2);
          return put(key, value);
        }
        hashes[slot] = h;
        table[2 * slot] = key;
        table[2 * slot + 1] = value;
        size++;
        return null;
      }
      if (stored == h && Arrays.equals((byte[]) table[2 * slot], key)) {
        Object old = table[2 * slot + 1];
        table[2 * slot + 1] = value;
        return old;
      }
    }
  }

  /** Removes {@code key} and returns its value, or {@code null} when it was absent. */
  Object remove(byte[] key) {
    int h = hash(key);
    int slot = h & mask;
    while (true) {
      int stored = hashes[slot];
      if (stored == 0) {
        return null;
      }
      if (stored == h && Arrays.equals((byte[]) table[2 * slot], key)) {
        break;
      }
      slot = (slot + 1) & mask;
    }
    Object old = table[2 * slot + 1];
    // Backward shift: pull later entries of the probe run into the hole when the hole lies
    // between their home slot and where they sit, so lookups never stop early at a gap.
    int hole = slot;
    for (int next = (hole + 1) & mask; hashes[next] != 0; next = (next + 1) & mask) {
      int home = hashes[next] & mask;
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        hashes[hole] = hashes[next];
        table[2 * hole] = table[2 * next];
        table[2 * hole + 1] = table[2 * next + 1];
        hole = next;
      }
    }
    hashes[hole] = 0;
    table[2 * hole] = null;
    table[2 * hole + 1] = null;
    size--;
    return old;
  }

  /** Number of slots; slots are visited with {@link #keyAt} and {@link #valueAt}. */
  int capacity() {
    return hashes.length;
  }

  /** The key in {@code slot}, or {@code null} for an empty slot. */
  byte[] keyAt(int slot) {
    return (byte[]) table[2 * slot];
  }

  Object valueAt(int slot) {
    return table[2 * slot + 1];
  }

  private void allocate(int capacity) {
    hashes = new int[capacity];
    table = new Object[2 * capacity];
    mask = capacity - 1;
    // Load factor 3/4: linear probing stays short, and the dense hash array keeps probes cheap.
    growAt = capacity / 4 * 3;
  }

  private void resize(int capacity) {
    if (capacity > MAX_CAPACITY) {
      throw new IllegalStateException("A heap state table holds at most " + growAt + " keys");
    }
    int[] oldHashes = hashes;
    Object[] oldTable = table;
    allocate(capacity);
    for (int i = 0; i < oldHashes.length; i++) {
      int h = oldHashes[i];
      if (h != 0) {
        int slot = h & mask;
        while (hashes[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        hashes[slot] = h;
        table[2 * slot] = oldTable[2 * i];
        table[2 * slot + 1] = oldTable[2 * i + 1];
      }
    }
  }

  /**
   * Content hash over 8-byte words, finished with MurmurHash3's 64-bit mix; never 0. {@code
   * Arrays.hashCode} will not do: its base-31 polynomial maps keys that differ in a few adjacent
   * bytes (big-endian counters, the usual state key) onto the same 32-bit value by the thousand.
   */
  static int hash(byte[] key) {
    int length = key.length;
    long h = length * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h =
          Long.rotateLeft(h ^ ((long) LONGS.get(key, i) * 0x87C37B91114253D5L), 31)
              * 0x4CF5AD432745937FL;
    }
    if (i < length) {
      long tail = 0;
      for (int shift = 0; i < length; i++, shift += 8) {
        tail |= (key[i] & 0xffL) << shift;
      }
      h = Long.rotateLeft(h ^ (tail * 0x87C37B91114253D5L), 31) * 0x4CF5AD432745937FL;
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    int folded = (int) (h ^ (h >>> 32));
    return folded == 0 ? 1 : folded;
  }
}
