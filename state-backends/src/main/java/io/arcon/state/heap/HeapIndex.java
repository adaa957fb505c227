package io.arcon.state.heap;

import io.arcon.state.KeyBytes;
import it.unimi.dsi.fastutil.objects.Object2ObjectMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenCustomHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The content of a heap table: a hash map from key to value for point reads and writes, plus the
 * keys in unsigned order for scans, maintained lazily.
 *
 * <p>Point operations touch only the hash map, so updating an existing key costs a few cache misses
 * at any table size. A write that adds or removes a key also notes the key as <i>unordered</i>; the
 * ordered key set catches up with the hash map when a scan asks for it ({@link #orderedKeys}), or
 * when the noted keys outnumber twice the live ones (so keys added and removed between scans do not
 * pile up). A table that is never scanned therefore never builds its ordered set; the price is that
 * the first scan after many insertions inserts all of them at once.
 */
final class HeapIndex {
  private static final int MIN_UNORDERED_BOUND = 1024;

  private final Object2ObjectOpenCustomHashMap<byte[], Object> values =
      new Object2ObjectOpenCustomHashMap<>(ByteKeyStrategy.INSTANCE);
  private final TreeSet<byte[]> ordered = new TreeSet<>(KeyBytes::compare);

  /** Keys added or removed since the last catch-up, with repeats; their membership is stale. */
  private ArrayList<byte[]> unordered = new ArrayList<>();

  /** Changes whenever a key is added or removed, so open scans know to re-seek. */
  private int structureVersion;

  /** Receives each entry of {@link #forEachEntry}. */
  interface EntryVisitor<E extends Exception> {
    void visit(byte[] key, Object value) throws E;
  }

  /** Receives each entry {@link #removeRange} removes. */
  interface RemovedEntry {
    void removed(byte[] key, Object value);
  }

  Object get(byte[] key) {
    return values.get(key);
  }

  /** Maps {@code key} to the non-null {@code value}; returns the previous value or {@code null}. */
  Object put(byte[] key, Object value) {
    Object old = values.put(key, value);
    if (old == null) {
      keyAddedOrRemoved(key);
    }
    return old;
  }

  /** Removes {@code key}; returns its value, or {@code null} when it was absent. */
  Object remove(byte[] key) {
    Object old = values.remove(key);
    if (old != null) {
      keyAddedOrRemoved(key);
    }
    return old;
  }

  /** Removes the keys in {@code [fromInclusive, toExclusive)}, reporting each removed entry. */
  void removeRange(byte[] fromInclusive, byte[] toExclusive, RemovedEntry removed) {
    NavigableSet<byte[]> range = orderedKeys().subSet(fromInclusive, true, toExclusive, false);
    if (range.isEmpty()) {
      return;
    }
    for (byte[] key : range) {
      removed.removed(key, values.remove(key));
    }
    range.clear();
    structureVersion++;
  }

  int size() {
    return values.size();
  }

  int structureVersion() {
    return structureVersion;
  }

  /**
   * Every key in unsigned order, as a live view; any key added or removed afterwards invalidates it
   * (check {@link #structureVersion}) and must not be written through it.
   */
  NavigableSet<byte[]> orderedKeys() {
    if (!unordered.isEmpty()) {
      catchUp();
    }
    return ordered;
  }

  /** Visits every entry, in no particular order (snapshots do not need order). */
  <E extends Exception> void forEachEntry(EntryVisitor<E> visitor) throws E {
    for (Object2ObjectMap.Entry<byte[], Object> e : values.object2ObjectEntrySet()) {
      visitor.visit(e.getKey(), e.getValue());
    }
  }

  private void keyAddedOrRemoved(byte[] key) {
    structureVersion++;
    unordered.add(key);
    if (unordered.size() > Math.max(MIN_UNORDERED_BOUND, 2 * values.size())) {
      catchUp();
    }
  }

  private void catchUp() {
    byte[][] keys = unordered.toArray(new byte[0][]);
    unordered = new ArrayList<>();
    // Inserting in key order keeps the tree's insertion path in cache.
    Arrays.sort(keys, KeyBytes::compare);
    for (int i = 0; i < keys.length; i++) {
      byte[] key = keys[i];
      if (i > 0 && Arrays.equals(key, keys[i - 1])) {
        continue;
      }
      if (values.get(key) != null) {
        ordered.add(key);
      } else {
        ordered.remove(key);
      }
    }
  }
}
