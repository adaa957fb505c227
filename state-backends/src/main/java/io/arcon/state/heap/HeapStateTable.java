package io.arcon.state.heap;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.ListFraming;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A heap table: a {@link TreeMap} in unsigned key order whose values are either {@code byte[]}
 * (plain values, stored as given: the SPI lets engines retain caller arrays) or {@link FramedList}.
 */
final class HeapStateTable implements StateTable {
  /** Rough per-entry cost of a TreeMap entry plus two array headers, for size estimates. */
  private static final long ENTRY_OVERHEAD_BYTES = 64;

  private final String name;
  private TreeMap<byte[], Object> map = new TreeMap<>(KeyBytes::compare);
  private long sizeBytes;
  // Counts insertions and removals so open scans can re-seek instead of failing with a
  // ConcurrentModificationException when the caller mutates the table while iterating.
  private int structureVersion;

  HeapStateTable(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(byte[] key) {
    Object value = map.get(key);
    if (value == null || value instanceof byte[]) {
      return (byte[]) value;
    }
    return ((FramedList) value).framedCopy();
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Objects.requireNonNull(value, "value");
    Object old = map.put(key, value);
    if (old == null) {
      structureVersion++;
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + value.length;
    } else {
      sizeBytes += value.length - valueSize(old);
    }
  }

  @Override
  public void delete(byte[] key) {
    Object old = map.remove(key);
    if (old != null) {
      structureVersion++;
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
    NavigableMap<byte[], Object> range = map.subMap(fromInclusive, true, toExclusive, false);
    for (Map.Entry<byte[], Object> e : range.entrySet()) {
      sizeBytes -= ENTRY_OVERHEAD_BYTES + e.getKey().length + valueSize(e.getValue());
    }
    range.clear();
    structureVersion++;
  }

  @Override
  public void append(byte[] key, byte[] element) {
    Objects.requireNonNull(element, "element");
    Object existing = map.get(key);
    if (existing instanceof FramedList list) {
      sizeBytes += list.append(element);
      return;
    }
    FramedList list;
    if (existing == null) {
      list = FramedList.of(element);
      structureVersion++;
      sizeBytes += ENTRY_OVERHEAD_BYTES + key.length + list.length();
    } else {
      // A plain value appended to: concatenate, exactly as RocksDB's merge would.
      byte[] plain = (byte[]) existing;
      list = FramedList.ofFramed(plain);
      sizeBytes += list.append(element);
    }
    map.put(key, list);
  }

  @Override
  public List<byte[]> getList(byte[] key) {
    Object value = map.get(key);
    if (value instanceof FramedList list) {
      return list.elements();
    }
    return ListFraming.decode((byte[]) value);
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
    return map.size();
  }

  /** Hands a stored value out: plain values as stored, lists as a copy of their frames. */
  static byte[] exportValue(Object value) {
    return value instanceof FramedList list ? list.framedCopy() : (byte[]) value;
  }

  /** Walks every entry in key order with the stored value objects (for snapshots). */
  Iterable<Map.Entry<byte[], Object>> entries() {
    return map.entrySet();
  }

  /** Replaces the whole content (restore). */
  void replaceContent(TreeMap<byte[], Object> content) {
    long size = 0;
    for (Map.Entry<byte[], Object> e : content.entrySet()) {
      size += ENTRY_OVERHEAD_BYTES + e.getKey().length + valueSize(e.getValue());
    }
    map = content;
    sizeBytes = size;
    structureVersion++;
  }

  static TreeMap<byte[], Object> newContent() {
    return new TreeMap<>(KeyBytes::compare);
  }

  private static long valueSize(Object value) {
    return value instanceof FramedList list ? list.length() : ((byte[]) value).length;
  }

  private NavigableMap<byte[], Object> range(
      byte[] from, boolean fromInclusive, byte[] toExclusive) {
    if (toExclusive != null && from != null && KeyBytes.compare(from, toExclusive) >= 0) {
      return new TreeMap<>();
    }
    NavigableMap<byte[], Object> view = map;
    if (from != null) {
      view = view.tailMap(from, fromInclusive);
    }
    if (toExclusive != null) {
      view = view.headMap(toExclusive, false);
    }
    return view;
  }

  /**
   * A scan over a live TreeMap view. It re-seeks after the last returned key when the table's
   * structure changed, so callers may put/delete while iterating (the timer and bag paths do).
   */
  private final class Scan implements CloseableIterator<StateEntry> {
    private final byte[] from;
    private final byte[] toExclusive;
    private Iterator<Map.Entry<byte[], Object>> cursor;
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
      NavigableMap<byte[], Object> view =
          lastKey == null ? range(from, true, toExclusive) : range(lastKey, false, toExclusive);
      cursor = view.entrySet().iterator();
      seenVersion = structureVersion;
    }

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      if (closed) {
        return false;
      }
      if (seenVersion != structureVersion) {
        seek();
      }
      if (!cursor.hasNext()) {
        return false;
      }
      Map.Entry<byte[], Object> e = cursor.next();
      lastKey = e.getKey();
      next = new StateEntry(e.getKey(), exportValue(e.getValue()));
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
