package io.arcon.state.heap;

import io.arcon.state.KeyBytes;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;

/**
 * The content of a heap table: a {@link SlabHashMap} from key to value (plain values inline, lists
 * as {@link FramedList}s) for point reads and writes, plus the keys in unsigned order for scans,
 * built and maintained lazily.
 *
 * <p>Point operations touch only the hash map, so updating an existing key costs about two cache
 * misses at any table size. The ordered key set does not exist until a scan asks for it ({@link
 * #orderedKeys}), which builds it from the map; from then on a write that adds or removes a key
 * notes the key as <i>unordered</i>, and the set catches up when the next scan asks. When the noted
 * keys outnumber twice the live ones, the set is dropped instead (rebuilding it is cheaper than
 * catching up), so keys added and removed between scans do not pile up. A table that is never
 * scanned therefore never holds its keys twice; the price is that the first scan after many
 * insertions sorts all of them at once. That first build sorts an array and then builds the tree
 * from it in linear time (see {@link SortedEntryArray}), so it costs one sort, not a sort plus an
 * insertion per key.
 *
 * <p>Positions returned by {@link #indexOf} are valid until the next insertion or removal.
 */
final class HeapIndex {
  private static final int MIN_UNORDERED_BOUND = 1024;

  private final SlabHashMap map = new SlabHashMap();

  /** The buffers of removed lists, for new ones (see {@link ListBufferPool}). */
  private final ListBufferPool listBuffers = new ListBufferPool();

  /**
   * The key order. One instance for the array sort, the sorted view and the tree: the tree copies
   * the view in linear time only when their comparators are equal.
   */
  private final Comparator<byte[]> order;

  /**
   * The keys in unsigned order, each with its list (null for a plain value) so that a scan of a
   * list table reads the list without probing the hash map; {@code null} while no scan needed them.
   */
  private TreeMap<byte[], FramedList> ordered;

  /** Keys added or removed since the last catch-up, with repeats; their membership is stale. */
  private ArrayList<byte[]> unordered = new ArrayList<>();

  /** Changes whenever a key is added or removed, so open scans know to re-seek. */
  private int structureVersion;

  /** Whether {@link #ordered} is kept current with each change instead of at the next scan. */
  private boolean eager;

  /**
   * Receives each entry of {@link #forEachEntry}: exactly one of {@code value} (a copy of a plain
   * value) and {@code list} is non-null.
   */
  interface EntryVisitor<E extends Exception> {
    void visit(byte[] key, byte[] value, FramedList list) throws E;
  }

  /** Receives each entry {@link #removeRange} removes, with its value's size in bytes. */
  interface RemovedEntry {
    void removed(byte[] key, long valueSize);
  }

  HeapIndex() {
    this(KeyBytes::compare);
  }

  /** An index ordering its keys by {@code order}, which must be unsigned lexicographic. */
  HeapIndex(Comparator<byte[]> order) {
    this.order = order;
  }

  /** The position of {@code key}, or {@code -1}. */
  int indexOf(byte[] key) {
    return map.indexOf(key);
  }

  /** Where this content's lists take their buffers from and give them back to. */
  ListBufferPool listBuffers() {
    return listBuffers;
  }

  /** Gives the buffer of the list at {@code position}, if it holds one, back to the pool. */
  private void releaseList(int position) {
    FramedList list = list(position);
    if (list != null) {
      list.release(listBuffers);
    }
  }

  /** The list at {@code position}, or {@code null} when it holds a plain value. */
  FramedList list(int position) {
    return map.isObject(position) ? (FramedList) map.object(position) : null;
  }

  /** A copy of the plain value at {@code position} (which must not hold a list). */
  byte[] value(int position) {
    return map.value(position);
  }

  /** The value at {@code position} decoded where it lies: the plain value or the framed list. */
  <T> T decodeValue(int position, StateTable.ValueDecoder<T> decoder) {
    FramedList list = list(position);
    if (list != null) {
      byte[] framed = list.framedCopy();
      return decoder.decode(framed, 0, framed.length);
    }
    return map.decodeValue(position, decoder);
  }

  /** A copy of the value at {@code position}: the plain value or the framed list. */
  byte[] exportValue(int position) {
    FramedList list = list(position);
    return list != null ? list.framedCopy() : map.value(position);
  }

  /** Bytes of the value at {@code position} (plain value or framed list). */
  long valueSize(int position) {
    FramedList list = list(position);
    return list != null ? list.length() : map.valueLength(position);
  }

  /**
   * Overwrites a plain value at {@code position} stored in place with {@code value[0, length)} when
   * it fits there and returns the old value's length; {@code -1} (and no change) otherwise.
   */
  int overwriteInPlace(int position, byte[] value, int length) {
    return map.overwriteInline(position, value, length);
  }

  /** Replaces the value at {@code position} with a plain value. */
  void setValue(int position, byte[] value) {
    boolean wasList = map.isObject(position);
    releaseList(position);
    map.setValue(position, value);
    if (wasList) {
      orderedListChanged(position, null);
    }
  }

  /** Replaces the value at {@code position} with a list. */
  void setList(int position, FramedList list) {
    if (list(position) != list) {
      releaseList(position);
    }
    map.setObject(position, list);
    orderedListChanged(position, list);
  }

  /**
   * Keeps the ordered map's list of the key at {@code position} current. A key added since the last
   * catch-up is not in the map yet; the catch-up reads its list then.
   */
  private void orderedListChanged(int position, FramedList list) {
    if (ordered != null) {
      ordered.replace(map.key(position), list);
    }
  }

  /** Adds the absent {@code key} with a plain value; the key array may be retained. */
  void insertValue(byte[] key, byte[] value) {
    map.insertValue(key, value);
    keyAdded(key, null);
  }

  /** Adds the absent {@code key} with a list; the key array may be retained. */
  void insertList(byte[] key, FramedList list) {
    map.insertObject(key, list);
    keyAdded(key, list);
  }

  /** Maps {@code key} to a plain value, adding it or replacing what it held. */
  void putValue(byte[] key, byte[] value) {
    int position = indexOf(key);
    if (position < 0) {
      insertValue(key, value);
    } else {
      setValue(position, value);
    }
  }

  /** Maps {@code key} to a list, adding it or replacing what it held. */
  void putList(byte[] key, FramedList list) {
    int position = indexOf(key);
    if (position < 0) {
      insertList(key, list);
    } else {
      setList(position, list);
    }
  }

  /** Removes the entry at {@code position}, whose key is {@code key}. */
  void removeAt(int position, byte[] key) {
    releaseList(position);
    map.removeAt(position);
    if (eager) {
      structureVersion++;
      ordered.remove(key);
    } else {
      keyAddedOrRemoved(key);
    }
  }

  /**
   * From now on keeps the key order current with every added or removed key (one tree insert or
   * removal each) instead of sorting the keys noted since the last scan when the next one comes,
   * and never drops it: for a table scanned about as often as keys are added.
   */
  void keepOrdered() {
    orderedKeys();
    eager = true;
  }

  /** Removes the keys in {@code [fromInclusive, toExclusive)}, reporting each removed entry. */
  void removeRange(byte[] fromInclusive, byte[] toExclusive, RemovedEntry removed) {
    NavigableMap<byte[], FramedList> range =
        orderedEntries().subMap(fromInclusive, true, toExclusive, false);
    if (range.isEmpty()) {
      return;
    }
    for (byte[] key : range.keySet()) {
      int position = map.indexOf(key);
      long size = valueSize(position);
      releaseList(position);
      map.removeAt(position);
      removed.removed(key, size);
    }
    range.clear();
    structureVersion++;
  }

  int size() {
    return map.size();
  }

  int structureVersion() {
    return structureVersion;
  }

  /**
   * Every key in unsigned order, as a live view; any key added or removed afterwards invalidates it
   * (check {@link #structureVersion}) and must not be written through it.
   */
  NavigableSet<byte[]> orderedKeys() {
    return orderedEntries().navigableKeySet();
  }

  /**
   * Every key in unsigned order with its list (null for a plain value), as a live view; any key
   * added or removed afterwards invalidates it (check {@link #structureVersion}), and it must not
   * be written through. A list replaced under a key is replaced in the view's entry too.
   */
  NavigableMap<byte[], FramedList> orderedEntries() {
    if (ordered == null) {
      build();
    } else if (!unordered.isEmpty()) {
      catchUp();
    }
    return ordered;
  }

  /** Visits every entry, in no particular order (snapshots do not need order). */
  <E extends Exception> void forEachEntry(EntryVisitor<E> visitor) throws E {
    for (int p = map.nextPosition(0); p >= 0; p = map.nextPosition(p + 1)) {
      FramedList list = list(p);
      visitor.visit(map.key(p), list == null ? map.value(p) : null, list);
    }
  }

  private void keyAdded(byte[] key, FramedList list) {
    if (eager) {
      structureVersion++;
      ordered.put(key, list);
    } else {
      keyAddedOrRemoved(key);
    }
  }

  private void keyAddedOrRemoved(byte[] key) {
    structureVersion++;
    if (ordered == null) {
      return;
    }
    unordered.add(key);
    if (unordered.size() > Math.max(MIN_UNORDERED_BOUND, 2 * map.size())) {
      ordered = null;
      unordered = new ArrayList<>();
    }
  }

  private void build() {
    byte[][] keys = new byte[map.size()][];
    int n = 0;
    for (int p = map.nextPosition(0); p >= 0; p = map.nextPosition(p + 1)) {
      keys[n++] = map.key(p);
    }
    Arrays.sort(keys, order);
    FramedList[] lists = new FramedList[n];
    for (int i = 0; i < n; i++) {
      lists[i] = list(map.indexOf(keys[i]));
    }
    // The map's keys are distinct, so the sorted arrays are a sorted map the tree copies linearly.
    ordered = new TreeMap<>(new SortedEntryArray(keys, lists, order));
    unordered = new ArrayList<>();
  }

  private void catchUp() {
    byte[][] keys = unordered.toArray(new byte[0][]);
    unordered = new ArrayList<>();
    Arrays.sort(keys, order);
    for (int i = 0; i < keys.length; i++) {
      byte[] key = keys[i];
      if (i > 0 && Arrays.equals(key, keys[i - 1])) {
        continue;
      }
      int position = map.indexOf(key);
      if (position >= 0) {
        ordered.put(key, list(position));
      } else {
        ordered.remove(key);
      }
    }
  }
}
