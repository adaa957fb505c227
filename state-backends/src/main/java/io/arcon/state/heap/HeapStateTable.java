package io.arcon.state.heap;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.ListFraming;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A heap table: a {@link HeapIndex} (hash map for point operations, lazily ordered keys for scans)
 * whose values are either plain values in their {@link StoredValue} form or {@link FramedList}s.
 *
 * <p>Plain values are private to the table: {@link #put} stores a copy, {@link #get} and scans hand
 * out copies. That lets a put of an existing key whose value still fits overwrite the stored bytes
 * in place, so a steady stream of updates creates no long-lived objects: storing each new array
 * would make the generational GC track an old-to-young reference per update and copy every value
 * out of the young generation, which costs more than the update itself.
 */
final class HeapStateTable implements StateTable {
  /**
   * Rough per-entry cost of a hash slot, an ordered-set node and two array headers, for size
   * estimates.
   */
  private static final long ENTRY_OVERHEAD_BYTES = 96;

  private final String name;
  private HeapIndex index = new HeapIndex();
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
    Object value = index.get(key);
    return value == null ? null : exportValue(value);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Objects.requireNonNull(value, "value");
    Object stored = index.get(key);
    if (stored instanceof byte[] current) {
      int oldLength = StoredValue.length(current);
      if (StoredValue.overwrite(current, value)) {
        sizeBytes += value.length - oldLength;
        return;
      }
    }
    Object old = index.put(key, StoredValue.of(value));
    if (old == null) {
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + value.length;
    } else {
      sizeBytes += value.length - valueSize(old);
    }
  }

  @Override
  public void delete(byte[] key) {
    Object old = index.remove(key);
    if (old != null) {
      sizeBytes -= ENTRY_OVERHEAD_BYTES + key.length + valueSize(old);
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
        (key, value) -> sizeBytes -= ENTRY_OVERHEAD_BYTES + key.length + valueSize(value));
  }

  @Override
  public void append(byte[] key, byte[] element) {
    Objects.requireNonNull(element, "element");
    Object existing = index.get(key);
    if (existing instanceof FramedList list) {
      sizeBytes += list.append(element);
      return;
    }
    FramedList list;
    if (existing == null) {
      list = FramedList.of(element);
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + list.length();
    } else {
      // A plain value appended to: concatenate, exactly as RocksDB's merge would.
      list = FramedList.ofFramed(StoredValue.copy((byte[]) existing));
      sizeBytes += list.append(element);
    }
    index.put(key, list);
  }

  @Override
  public List<byte[]> getList(byte[] key) {
    Object value = index.get(key);
    if (value instanceof FramedList list) {
      return list.elements();
    }
    return ListFraming.decode(value == null ? null : StoredValue.copy((byte[]) value));
  }

  @Override
  public CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive) {
    return new Scan(fromInclusive, toExclusive);
  }

  @Override
  public long approximateSizeBytes() {
    return sizeBytes;
  }

  int size() {
    return index.size();
  }

  /** Hands a stored value out as a copy (plain values are overwritten in place, see above). */
  static byte[] exportValue(Object value) {
    return value instanceof FramedList list ? list.framedCopy() : StoredValue.copy((byte[]) value);
  }

  /** Visits every entry with the stored value objects (for snapshots), in no particular order. */
  <E extends Exception> void forEachEntry(HeapIndex.EntryVisitor<E> visitor) throws E {
    index.forEachEntry(visitor);
  }

  /** Replaces the whole content (restore). */
  void replaceContent(HeapIndex content) {
    long[] size = {0};
    content.forEachEntry(
        (key, value) -> size[0] += ENTRY_OVERHEAD_BYTES + key.length + valueSize(value));
    index = content;
    sizeBytes = size[0];
  }

  private static long valueSize(Object value) {
    return value instanceof FramedList list ? list.length() : StoredValue.length((byte[]) value);
  }

  private NavigableSet<byte[]> range(byte[] from, boolean fromInclusive, byte[] toExclusive) {
    NavigableSet<byte[]> view = index.orderedKeys();
    if (toExclusive != null && from != null && KeyBytes.compare(from, toExclusive) >= 0) {
      return Collections.emptyNavigableSet();
    }
    if (from != null) {
      view = view.tailSet(from, fromInclusive);
    }
    if (toExclusive != null) {
      view = view.headSet(toExclusive, false);
    }
    return view;
  }

  /**
   * A scan over a live view of the ordered keys. It re-seeks after the last returned key when keys
   * were added or removed (in which case the view is stale), so callers may put/delete while
   * iterating (the timer and bag paths do). {@code index} is read afresh on every seek, so a scan
   * that was open across a restore continues in the restored content.
   */
  private final class Scan implements CloseableIterator<StateEntry> {
    private final byte[] from;
    private final byte[] toExclusive;
    private HeapIndex seenIndex;
    private Iterator<byte[]> cursor;
    private int seenVersion;
    private byte[] lastKey;
    private StateEntry next;
    private boolean closed;

    Scan(byte[] from, byte[] toExclusive) {
      this.from = from;
      this.toExclusive = toExclusive;
      seek();
    }

    private void seek() {
      NavigableSet<byte[]> view =
          lastKey == null ? range(from, true, toExclusive) : range(lastKey, false, toExclusive);
      cursor = view.iterator();
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
      byte[] key = cursor.next();
      lastKey = key;
      next = new StateEntry(key, exportValue(index.get(key)));
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
      closed = true;
      next = null;
    }
  }
}
