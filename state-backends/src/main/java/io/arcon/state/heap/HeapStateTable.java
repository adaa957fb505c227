package io.arcon.state.heap;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.ListFraming;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A heap table: a {@link HeapIndex} (hash map for point operations, lazily ordered keys for scans)
 * whose values are either plain values, stored inline next to their keys in the index's slab, or
 * {@link FramedList}s.
 *
 * <p>Plain values are private to the table: {@link #put} stores a copy, {@link #get} and scans hand
 * out copies. That lets a put of an existing key whose value still fits overwrite the stored bytes
 * in place, so a steady stream of updates creates no objects at all on the table's side.
 */
final class HeapStateTable implements StateTable {
  /**
   * Rough per-entry cost of a hash slot (8 bytes at a load of 0.375-0.75) and an entry header with
   * alignment, for size estimates; a scanned table's ordered key set comes on top.
   */
  private static final long ENTRY_OVERHEAD_BYTES = 32;

  private final String name;
  private HeapIndex index = new HeapIndex();

  /** Whether the key order is kept current with every change ({@link #keepKeyOrder}). */
  private boolean keepKeyOrder;

  private long sizeBytes;

  HeapStateTable(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(byte[] key) {
    int position = index.indexOf(key);
    return position < 0 ? null : index.exportValue(position);
  }

  @Override
  public <T> T get(byte[] key, ValueDecoder<T> decoder) {
    int position = index.indexOf(key);
    return position < 0 ? null : index.decodeValue(position, decoder);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Objects.requireNonNull(value, "value");
    int position = index.indexOf(key);
    if (position < 0) {
      index.insertValue(key, value);
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + value.length;
    } else if (!overwriteInPlace(position, value, value.length)) {
      sizeBytes += value.length - index.valueSize(position);
      index.setValue(position, value);
    }
  }

  /** A value that fits its stored place is copied there; otherwise {@link #put} of a copy. */
  @Override
  public void putCopyOf(byte[] key, byte[] value, int length) {
    int position = index.indexOf(key);
    if (position < 0 || !overwriteInPlace(position, value, length)) {
      put(key, Arrays.copyOf(value, length));
    }
  }

  /** Overwrites the plain value at {@code position} in place when it fits there. */
  private boolean overwriteInPlace(int position, byte[] value, int length) {
    int oldLength = index.overwriteInPlace(position, value, length);
    if (oldLength < 0) {
      return false;
    }
    sizeBytes += length - oldLength;
    return true;
  }

  @Override
  public void delete(byte[] key) {
    int position = index.indexOf(key);
    if (position >= 0) {
      sizeBytes -= ENTRY_OVERHEAD_BYTES + key.length + index.valueSize(position);
      index.removeAt(position, key);
    }
  }

  @Override
  public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
    Objects.requireNonNull(fromInclusive, "fromInclusive");
    Objects.requireNonNull(toExclusive, "toExclusive");
    if (KeyBytes.compare(fromInclusive, toExclusive) >= 0) {
      return;
    }
    index.removeRange(
        fromInclusive,
        toExclusive,
        (key, valueSize) -> sizeBytes -= ENTRY_OVERHEAD_BYTES + key.length + valueSize);
  }

  @Override
  public void append(byte[] key, byte[] element) {
    Objects.requireNonNull(element, "element");
    int position = index.indexOf(key);
    if (position < 0) {
      FramedList list = FramedList.of(element, index.listBuffers());
      index.insertList(key, list);
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + list.length();
      return;
    }
    FramedList list = index.list(position);
    if (list != null) {
      sizeBytes += list.append(element, index.listBuffers());
      return;
    }
    // A plain value appended to: concatenate, exactly as RocksDB's merge would.
    list = FramedList.ofFramed(index.value(position));
    sizeBytes += list.append(element, index.listBuffers());
    index.setList(position, list);
  }

  @Override
  public void keepKeyOrder() {
    keepKeyOrder = true;
    index.keepOrdered();
  }

  /** One lookup of {@code key} for all of {@code elements}. */
  @Override
  public void appendAll(byte[] key, List<byte[]> elements) {
    if (elements.isEmpty()) {
      return;
    }
    int position = index.indexOf(key);
    if (position < 0) {
      FramedList list = FramedList.ofAll(elements, index.listBuffers());
      index.insertList(key, list);
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + list.length();
      return;
    }
    FramedList list = index.list(position);
    if (list == null) {
      // A plain value appended to: concatenate, exactly as RocksDB's merge would.
      list = FramedList.ofFramed(index.value(position));
      index.setList(position, list);
    }
    sizeBytes += list.appendAll(elements, index.listBuffers());
  }

  @Override
  public List<byte[]> getList(byte[] key) {
    int position = index.indexOf(key);
    if (position < 0) {
      return ListFraming.decode(null);
    }
    FramedList list = index.list(position);
    return list != null ? list.elements() : ListFraming.decode(index.value(position));
  }

  @Override
  public CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive) {
    return new Scan(fromInclusive, toExclusive);
  }

  /** The ordered keys alone: no hash probe and no copy of a value per key. */
  @Override
  public CloseableIterator<byte[]> scanKeys(byte[] fromInclusive, byte[] toExclusive) {
    return new KeyScan(fromInclusive, toExclusive);
  }

  @Override
  public long approximateSizeBytes() {
    return sizeBytes;
  }

  int size() {
    return index.size();
  }

  /** Bytes of removed lists' buffers kept for new lists. */
  long pooledListBytes() {
    return index.listBuffers().pooledBytes();
  }

  /** Visits every entry with the stored value objects (for snapshots), in no particular order. */
  <E extends Exception> void forEachEntry(HeapIndex.EntryVisitor<E> visitor) throws E {
    index.forEachEntry(visitor);
  }

  /** Replaces the whole content (restore). */
  void replaceContent(HeapIndex content) {
    long[] size = {0};
    content.forEachEntry(
        (key, value, list) ->
            size[0] +=
                ENTRY_OVERHEAD_BYTES + key.length + (list != null ? list.length() : value.length));
    index = content;
    sizeBytes = size[0];
    if (keepKeyOrder) {
      index.keepOrdered();
    }
  }

  private NavigableMap<byte[], FramedList> range(
      byte[] from, boolean fromInclusive, byte[] toExclusive) {
    NavigableMap<byte[], FramedList> view = index.orderedEntries();
    if (toExclusive != null && from != null && KeyBytes.compare(from, toExclusive) >= 0) {
      return Collections.emptyNavigableMap();
    }
    if (from != null) {
      view = view.tailMap(from, fromInclusive);
    }
    if (toExclusive != null) {
      view = view.headMap(toExclusive, false);
    }
    return view;
  }

  /**
   * A scan over a live view of the ordered keys. It re-seeks after the last returned key when keys
   * were added or removed (in which case the view is stale), so callers may put/delete while
   * iterating (the timer and bag paths do). {@code index} is read afresh on every seek, so a scan
   * that was open across a restore continues in the restored content.
   */
  private final class KeyScan implements CloseableIterator<byte[]> {
    private final byte[] from;
    private final byte[] toExclusive;
    private HeapIndex seenIndex;
    private Iterator<Map.Entry<byte[], FramedList>> cursor;
    private int seenVersion;
    private byte[] lastKey;
    private Map.Entry<byte[], FramedList> next;
    private boolean closed;

    KeyScan(byte[] from, byte[] toExclusive) {
      this.from = from;
      this.toExclusive = toExclusive;
      seek();
    }

    private void seek() {
      NavigableMap<byte[], FramedList> view =
          lastKey == null ? range(from, true, toExclusive) : range(lastKey, false, toExclusive);
      cursor = view.entrySet().iterator();
      seenIndex = index;
      seenVersion = index.structureVersion();
    }

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      if (closed) {
        return false;
      }
      if (seenIndex != index || seenVersion != index.structureVersion()) {
        seek();
      }
      if (!cursor.hasNext()) {
        return false;
      }
      next = cursor.next();
      lastKey = next.getKey();
      return true;
    }

    @Override
    public byte[] next() {
      return nextEntry().getKey();
    }

    /**
     * The next key with its list as the ordered index holds it: current at the time of the call (a
     * list replaced under the key is replaced in the entry), null for a plain value.
     */
    Map.Entry<byte[], FramedList> nextEntry() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Map.Entry<byte[], FramedList> result = next;
      next = null;
      return result;
    }

    @Override
    public void close() {
      closed = true;
      next = null;
    }
  }

  /** {@link KeyScan} with each key's value, read when the key is reached. */
  private final class Scan implements CloseableIterator<StateEntry> {
    private final KeyScan keys;
    private StateEntry next;

    Scan(byte[] from, byte[] toExclusive) {
      this.keys = new KeyScan(from, toExclusive);
    }

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      if (!keys.hasNext()) {
        return false;
      }
      Map.Entry<byte[], FramedList> entry = keys.nextEntry();
      byte[] key = entry.getKey();
      FramedList list = entry.getValue();
      // A list comes with its key: no probe of the hash map.
      next =
          new StateEntry(
              key, list != null ? list.framedCopy() : index.exportValue(index.indexOf(key)));
      return true;
    }

    @Override
    public StateEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      StateEntry result = next;
      next = null;
      return result;
    }

    @Override
    public void close() {
      keys.close();
      next = null;
    }
  }
}
