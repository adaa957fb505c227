package io.arcon.state.rocksdb;

import io.arcon.state.ByteKeyHash;
import io.arcon.state.KeyOrder;
import java.util.Arrays;
import org.rocksdb.RocksDBException;

/**
 * The recently read and written rows of one rocksdb table, in front of RocksDB: a write-back cache.
 *
 * <p>Why: per-element state is a read and a write of the same row. Through RocksDB each is a JNI
 * call and a walk of the memtable's skiplist, and a put of a key the active memtable does not hold
 * walks it twice (the in-place update looks first, then inserts). Here a hot key is read and
 * rewritten in a Java hash table, and RocksDB gets each dirty row once per write-back, in sorted
 * batches (sorted inserts reuse the skiplist's last insert position).
 *
 * <p>What a slot holds: a key and one of {@link #CLEAN} (the value RocksDB has), {@link #ABSENT}
 * (RocksDB has no row), {@link #PUT}, {@link #PUT_NEW} (a put of a row RocksDB does not have, which
 * a delete then simply forgets: a timer set and fired between write-backs never reaches RocksDB) or
 * {@link #DELETED} (writes RocksDB has not seen yet: dirty), or {@link #UNCACHED} (ask RocksDB: the
 * key was appended to, which RocksDB merges natively). Slots are never removed one by one (open
 * addressing with linear probing, no tombstones); once its bytes pass the budget, the table either
 * gets a larger budget (see {@link RocksDbStateTable}) or is emptied whole after the dirty rows
 * were written back.
 *
 * <p>Single-threaded, like the backend.
 */
final class RocksDbRowCache {
  static final byte CLEAN = 1;
  static final byte ABSENT = 2;
  static final byte PUT = 3;
  static final byte DELETED = 4;
  static final byte UNCACHED = 5;
  static final byte PUT_NEW = 6;

  /** Accounted per slot on top of its key and value: the slot's arrays and the array headers. */
  private static final int SLOT_OVERHEAD_BYTES = 64;

  private static final int INITIAL_CAPACITY = 1 << 10;

  /** Where {@link #writeBack} sends the dirty rows, in ascending key order. */
  interface DirtyRows {
    void put(byte[] key, byte[] value) throws RocksDBException;

    void delete(byte[] key) throws RocksDBException;
  }

  private long budgetBytes;
  private byte[][] keys = new byte[INITIAL_CAPACITY][];
  private byte[][] values = new byte[INITIAL_CAPACITY][];
  private int[] hashes = new int[INITIAL_CAPACITY];
  private byte[] states = new byte[INITIAL_CAPACITY];

  /** Per slot: whether it is in {@link #dirty} (a slot may stop being dirty while listed). */
  private boolean[] listed = new boolean[INITIAL_CAPACITY];

  private int[] dirty = new int[64];
  private int dirtyCount;
  private int size;
  private long bytes;

  /** The hash of the key of the last {@link #find}, for the insertion that may follow it. */
  private int foundHash;

  RocksDbRowCache(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  int size() {
    return size;
  }

  long bytes() {
    return bytes;
  }

  boolean overBudget() {
    return bytes > budgetBytes;
  }

  long budgetBytes() {
    return budgetBytes;
  }

  /** A larger budget, so that the rows held now stay (see {@link RowCacheMemory}). */
  void raiseBudget(long budgetBytes) {
    if (budgetBytes < this.budgetBytes) {
      throw new IllegalArgumentException(
          "A row cache budget only grows: " + budgetBytes + " < " + this.budgetBytes);
    }
    this.budgetBytes = budgetBytes;
  }

  boolean hasDirtyRows() {
    return dirtyCount > 0;
  }

  /**
   * The slot holding {@code key} ({@code >= 0}), or {@code -1 - slot} for the free slot where it
   * would go. The next {@link #set} for this key must come before any other call that changes the
   * cache.
   */
  int find(byte[] key) {
    int hash = ByteKeyHash.hash(key);
    foundHash = hash;
    int mask = keys.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      byte[] k = keys[i];
      if (k == null) {
        return -1 - i;
      }
      if (hashes[i] == hash && Arrays.equals(k, key)) {
        return i;
      }
    }
  }

  /** Whether the slot answers a get without RocksDB. */
  boolean answers(int slot) {
    return slot >= 0 && states[slot] != UNCACHED;
  }

  /**
   * A copy of the cached value of an answering slot; null when the row does not exist. A copy: the
   * cache overwrites its arrays in place (see {@link #set}), and a caller may keep what a get
   * returned.
   */
  byte[] value(int slot) {
    byte[] value = values[slot];
    return value == null ? null : value.clone();
  }

  /** The slot's state; 0 for a free slot ({@code found < 0}). */
  byte state(int found) {
    return found < 0 ? 0 : states[found];
  }

  private static boolean isDirty(byte state) {
    return state == PUT || state == PUT_NEW || state == DELETED;
  }

  /** A get that RocksDB answered ({@code found} from {@link #find}): the row is now known. */
  void recordRead(int found, byte[] key, byte[] value) {
    set(found, key, value == null ? ABSENT : CLEAN, value);
  }

  /** A put, to reach RocksDB at the next write-back. */
  void put(byte[] key, byte[] value) {
    int found = find(key);
    byte prior = state(found);
    set(found, key, prior == ABSENT || prior == PUT_NEW ? PUT_NEW : PUT, value);
  }

  /**
   * A delete: nothing to write when RocksDB is known to lack the row; a row put since it was found
   * lacking is simply forgotten.
   */
  void delete(byte[] key) {
    int found = find(key);
    byte prior = state(found);
    if (prior != ABSENT) {
      set(found, key, prior == PUT_NEW ? ABSENT : DELETED, null);
    }
  }

  /**
   * Before RocksDB works on the stored row itself (a merge, a list read): the key's cached write,
   * if any, goes to {@code out} now, and the cache stops answering for the key.
   */
  void writeThrough(byte[] key, DirtyRows out) throws RocksDBException {
    if (size == 0) {
      return;
    }
    int found = find(key);
    if (found < 0) {
      return;
    }
    send(out, key, states[found], values[found]);
    set(found, key, UNCACHED, null);
  }

  private static void send(DirtyRows out, byte[] key, byte state, byte[] value)
      throws RocksDBException {
    if (state == DELETED) {
      out.delete(key);
    } else if (state == PUT || state == PUT_NEW) {
      out.put(key, value);
    }
  }

  /**
   * Sets the row at {@code found} (what {@link #find} returned for {@code key}) to {@code state}
   * with {@code value} (null for {@link #ABSENT}, {@link #DELETED} and {@link #UNCACHED}).
   */
  void set(int found, byte[] key, byte state, byte[] value) {
    int slot = found;
    if (slot < 0) {
      if (size + 1 > keys.length / 2) {
        grow();
        slot = find(key);
      }
      slot = -1 - slot;
      keys[slot] = key;
      hashes[slot] = foundHash;
      size++;
      bytes += key.length + SLOT_OVERHEAD_BYTES;
    } else if (values[slot] != null) {
      byte[] held = values[slot];
      if (value != null && held.length == value.length) {
        // Copied into the row's array, not replaced: storing a young array's reference into
        // these long-lived slot arrays dirties a card that G1 must refine, one per put, which
        // cost a quarter of the CPU once the cache held a million keys. Safe because the cache
        // never hands its arrays out (see #value) and keeps none of its callers'.
        System.arraycopy(value, 0, held, 0, value.length);
        setState(slot, state);
        return;
      }
      bytes -= held.length;
    }
    // A copy of its own, as it is overwritten in place later: the caller's array may be in use
    // elsewhere (put under another key too, or returned to a reader by RocksDB's get).
    values[slot] = value == null ? null : value.clone();
    if (value != null) {
      bytes += value.length;
    }
    setState(slot, state);
  }

  private void setState(int slot, byte state) {
    states[slot] = state;
    if (isDirty(state) && !listed[slot]) {
      listed[slot] = true;
      if (dirtyCount == dirty.length) {
        dirty = Arrays.copyOf(dirty, dirtyCount * 2);
      }
      dirty[dirtyCount++] = slot;
    }
  }

  /**
   * Sends every dirty row to {@code out} in ascending key order and marks it as RocksDB's (clean or
   * absent). Returns how many rows went.
   */
  int writeBack(DirtyRows out) throws RocksDBException {
    byte[][] rowKeys = new byte[dirtyCount][];
    byte[][] rowValues = new byte[dirtyCount][];
    byte[] rowStates = new byte[dirtyCount];
    int count = 0;
    for (int i = 0; i < dirtyCount; i++) {
      int slot = dirty[i];
      listed[slot] = false;
      byte state = states[slot];
      if (isDirty(state)) {
        rowKeys[count] = keys[slot];
        rowValues[count] = values[slot];
        rowStates[count] = state;
        count++;
        states[slot] = state == DELETED ? ABSENT : CLEAN;
      }
    }
    dirtyCount = 0;
    // Ascending keys: RocksDB's skiplist insert starts from the previous insert's position.
    for (int row : KeyOrder.sortedPositions(rowKeys, count)) {
      send(out, rowKeys[row], rowStates[row], rowValues[row]);
    }
    return count;
  }

  /** Forgets every row; the dirty ones must have been written back (or be meant to vanish). */
  void clear() {
    if (keys.length > INITIAL_CAPACITY) {
      keys = new byte[INITIAL_CAPACITY][];
      values = new byte[INITIAL_CAPACITY][];
      hashes = new int[INITIAL_CAPACITY];
      states = new byte[INITIAL_CAPACITY];
      listed = new boolean[INITIAL_CAPACITY];
    } else {
      Arrays.fill(keys, null);
      Arrays.fill(values, null);
      Arrays.fill(states, (byte) 0);
      Arrays.fill(listed, false);
    }
    dirtyCount = 0;
    size = 0;
    bytes = 0;
  }

  private void grow() {
    byte[][] oldKeys = keys;
    byte[][] oldValues = values;
    int[] oldHashes = hashes;
    byte[] oldStates = states;
    int capacity = oldKeys.length * 2;
    keys = new byte[capacity][];
    values = new byte[capacity][];
    hashes = new int[capacity];
    states = new byte[capacity];
    listed = new boolean[capacity];
    int mask = capacity - 1;
    int[] moved = new int[oldKeys.length];
    for (int old = 0; old < oldKeys.length; old++) {
      byte[] k = oldKeys[old];
      if (k == null) {
        continue;
      }
      int i = oldHashes[old] & mask;
      while (keys[i] != null) {
        i = (i + 1) & mask;
      }
      keys[i] = k;
      values[i] = oldValues[old];
      hashes[i] = oldHashes[old];
      states[i] = oldStates[old];
      moved[old] = i;
    }
    // The dirty list names slots: renumber it, dropping entries no longer dirty.
    int kept = 0;
    for (int d = 0; d < dirtyCount; d++) {
      int slot = moved[dirty[d]];
      if (isDirty(states[slot]) && !listed[slot]) {
        listed[slot] = true;
        dirty[kept++] = slot;
      }
    }
    dirtyCount = kept;
  }
}
