package io.arcon.state.heap;

import io.arcon.state.ByteKeyHash;
import io.arcon.state.StateTable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A hash map from {@code byte[]} keys (by content) to values that are either bytes or an object,
 * with no per-entry objects for byte values.
 *
 * <p>Layout: an open-addressing table (linear probing, backward-shift deletion, so no tombstones)
 * of 64-byte <i>cells</i>, one cache line each, in large {@code byte[]} chunks. A cell holds the
 * key's 32-bit hash, a kind byte and either
 *
 * <ul>
 *   <li>the key and the value inline, when together they take at most {@value #INLINE_BYTES} bytes
 *       (the usual state row: a lookup reads one cache line, and an update writes it);
 *   <li>the key inline and the index of an object (a {@link FramedList}) in a side array; or
 *   <li>the offset of an entry in the <i>slab</i>, a sequence of large {@code byte[]} chunks
 *       holding {@code [int keyLength][int valueLength][int valueCapacity][key][value][slack]},
 *       8-byte aligned, for keys and values too large for a cell ({@code valueLength = -1 - i} when
 *       the value is object {@code i}).
 * </ul>
 *
 * <p>A value that fits its cell or slab entry is overwritten in place; a larger one moves to the
 * slab, with room to spare. Space of removed and moved slab entries goes to per-size free lists
 * (reused by entries of the same size) and the slab is compacted when the dead bytes outnumber the
 * live ones.
 *
 * <p>Positions ({@link #indexOf}) are cell indexes, valid until the next insertion or removal.
 * Single-threaded.
 */
final class SlabHashMap {
  static final int CHUNK_BITS = 24;
  static final int CHUNK_SIZE = 1 << CHUNK_BITS;
  private static final int FIRST_CHUNK_SIZE = 1 << 10;
  private static final int HEADER = 12;
  private static final int KEY_LENGTH = 0;
  private static final int VALUE_LENGTH = 4;
  private static final int VALUE_CAPACITY = 8;

  /**
   * Length of a full slab chunk: with its 16-byte header the array fills whole G1 regions (a
   * humongous object wastes the rest of its last region).
   */
  private static final int SLAB_CHUNK_LENGTH = CHUNK_SIZE - 16;

  // ---- cells
  private static final int CELL_BITS = 6;

  /** Cell chunks of 64 MiB: their 48 leading bytes waste little of the last region. */
  private static final int CELL_CHUNK_BITS = 26;

  private static final int CELLS_PER_CHUNK_BITS = CELL_CHUNK_BITS - CELL_BITS;
  private static final int CELL_INDEX_MASK = (1 << CELLS_PER_CHUNK_BITS) - 1;

  /**
   * Where the first cell of a chunk starts: a large array starts its own G1 region, so after the
   * 16-byte array header this puts every cell on a cache line of its own.
   */
  private static final int CELLS_BASE = 48;

  private static final int CELL_HASH = 0;
  private static final int CELL_KIND = 4;
  private static final int CELL_KEY_LENGTH = 5;
  private static final int CELL_VALUE_LENGTH = 6;
  private static final int CELL_KEY = 8;
  private static final int CELL_SLAB_OFFSET = 8;
  private static final int CELL_OBJECT = 60;

  /** Key plus value bytes that fit in a cell. */
  static final int INLINE_BYTES = 56;

  /** Key bytes that fit in a cell next to an object index. */
  private static final int INLINE_OBJECT_KEY_BYTES = 52;

  private static final byte EMPTY = 0;
  private static final byte INLINE = 1;
  private static final byte IN_SLAB = 2;
  private static final byte INLINE_KEY_OBJECT = 3;

  /** Free lists for slab entries of up to this many bytes, one per multiple of 8. */
  private static final int MAX_FREE_LISTED = 1024;

  private static final int MIN_COMPACTION_WASTE = 1 << 20;
  private static final int MIN_CELLS = 16;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[][] cells = newCells(MIN_CELLS);
  private int cellMask = MIN_CELLS - 1;
  private int size;
  private int resizeAt = threshold(MIN_CELLS);

  private byte[][] chunks = {new byte[FIRST_CHUNK_SIZE]};

  /** Offset of the first unallocated byte in the last chunk. */
  private int top = 8;

  /** Head offset of the free list of each size class ({@code size / 8}), -1 when empty. */
  private final long[] freeHeads = newFreeHeads();

  /** Bytes of the slab allocated to entries, dead or alive, and of those the dead ones. */
  private long allocatedBytes;

  private long deadBytes;

  /**
   * The key array of the last {@link #indexOf} and its result, until an entry is added or removed
   * (which may move cells): a state's read and the write after it look up the same address array,
   * and the write then skips the hash and the probe. Arrays handed to a table are never mutated
   * ({@link io.arcon.state.StateTable}), so the same array is the same key.
   */
  private byte[] lastKey;

  private int lastPosition;

  private Object[] objects = new Object[0];
  private int[] freeObjects = new int[0];
  private int freeObjectCount;
  private int objectCount;

  int size() {
    return size;
  }

  private static byte[][] newCells(int capacity) {
    int perChunk = 1 << CELLS_PER_CHUNK_BITS;
    if (capacity <= perChunk) {
      return new byte[][] {new byte[CELLS_BASE + (capacity << CELL_BITS)]};
    }
    byte[][] chunks = new byte[capacity / perChunk][];
    for (int i = 0; i < chunks.length; i++) {
      chunks[i] = new byte[CELLS_BASE + (1 << CELL_CHUNK_BITS)];
    }
    return chunks;
  }

  private static int cellOffset(int index) {
    return CELLS_BASE + ((index & CELL_INDEX_MASK) << CELL_BITS);
  }

  private byte[] cellChunk(int index) {
    return cells[index >>> CELLS_PER_CHUNK_BITS];
  }

  /** The position of {@code key}, or {@code -1} when it is absent. */
  int indexOf(byte[] key) {
    if (key == lastKey) {
      return lastPosition;
    }
    int position = probe(key);
    lastKey = key;
    lastPosition = position;
    return position;
  }

  private int probe(byte[] key) {
    int hash = ByteKeyHash.hash(key);
    int mask = cellMask;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      byte[] c = cellChunk(i);
      int o = cellOffset(i);
      byte kind = c[o + CELL_KIND];
      if (kind == EMPTY) {
        return -1;
      }
      if ((int) INTS.get(c, o + CELL_HASH) == hash) {
        if (kind == IN_SLAB) {
          if (slabKeyEquals((long) LONGS.get(c, o + CELL_SLAB_OFFSET), key)) {
            return i;
          }
        } else {
          int keyLength = c[o + CELL_KEY_LENGTH] & 0xff;
          if (keyLength == key.length
              && Arrays.equals(c, o + CELL_KEY, o + CELL_KEY + keyLength, key, 0, keyLength)) {
            return i;
          }
        }
      }
    }
  }

  private boolean slabKeyEquals(long offset, byte[] key) {
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
    return keyLength == key.length
        && Arrays.equals(chunk, pos + HEADER, pos + HEADER + keyLength, key, 0, keyLength);
  }

  private long slabOffset(int position) {
    return (long) LONGS.get(cellChunk(position), cellOffset(position) + CELL_SLAB_OFFSET);
  }

  private int slabInt(long offset, int field) {
    return (int)
        INTS.get(chunks[(int) (offset >>> CHUNK_BITS)], ((int) offset & (CHUNK_SIZE - 1)) + field);
  }

  private byte kind(int position) {
    return cellChunk(position)[cellOffset(position) + CELL_KIND];
  }

  /** Whether the entry at {@code position} holds an object rather than bytes. */
  boolean isObject(int position) {
    byte kind = kind(position);
    return kind == INLINE_KEY_OBJECT
        || (kind == IN_SLAB && slabInt(slabOffset(position), VALUE_LENGTH) < 0);
  }

  /** The object of an entry that holds one. */
  Object object(int position) {
    byte kind = kind(position);
    if (kind == INLINE_KEY_OBJECT) {
      return objects[(int) INTS.get(cellChunk(position), cellOffset(position) + CELL_OBJECT)];
    }
    int length = kind == IN_SLAB ? slabInt(slabOffset(position), VALUE_LENGTH) : 0;
    if (length >= 0) {
      throw new IllegalStateException("the entry holds bytes");
    }
    return objects[-1 - length];
  }

  /** Length of the byte value at {@code position}. */
  int valueLength(int position) {
    byte kind = kind(position);
    int length =
        switch (kind) {
          case INLINE -> cellChunk(position)[cellOffset(position) + CELL_VALUE_LENGTH] & 0xff;
          case IN_SLAB -> slabInt(slabOffset(position), VALUE_LENGTH);
          default -> -1;
        };
    if (length < 0) {
      throw new IllegalStateException("the entry holds an object");
    }
    return length;
  }

  /** The plain value at {@code position} decoded where it lies. */
  <T> T decodeValue(int position, StateTable.ValueDecoder<T> decoder) {
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    byte kind = c[o + CELL_KIND];
    if (kind == INLINE) {
      int start = o + CELL_KEY + (c[o + CELL_KEY_LENGTH] & 0xff);
      return decoder.decode(c, start, c[o + CELL_VALUE_LENGTH] & 0xff);
    }
    if (kind == IN_SLAB) {
      long offset = (long) LONGS.get(c, o + CELL_SLAB_OFFSET);
      byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
      int pos = (int) offset & (CHUNK_SIZE - 1);
      int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
      int valueLength = (int) INTS.get(chunk, pos + VALUE_LENGTH);
      if (valueLength >= 0) {
        return decoder.decode(chunk, pos + HEADER + keyLength, valueLength);
      }
    }
    throw new IllegalStateException("the entry holds an object");
  }

  /** A copy of the byte value at {@code position}. */
  byte[] value(int position) {
    return decodeValue(position, COPY);
  }

  private static final StateTable.ValueDecoder<byte[]> COPY =
      (bytes, offset, length) -> Arrays.copyOfRange(bytes, offset, offset + length);

  /** A copy of the key at {@code position}. */
  byte[] key(int position) {
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    if (c[o + CELL_KIND] != IN_SLAB) {
      return Arrays.copyOfRange(c, o + CELL_KEY, o + CELL_KEY + (c[o + CELL_KEY_LENGTH] & 0xff));
    }
    long offset = (long) LONGS.get(c, o + CELL_SLAB_OFFSET);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
    return Arrays.copyOfRange(chunk, pos + HEADER, pos + HEADER + keyLength);
  }

  /**
   * The common update in one step: if the entry at {@code position} holds bytes inline and {@code
   * value[0, length)} fits in their place, overwrites them and returns the old length; otherwise
   * changes nothing and returns {@code -1}.
   */
  int overwriteInline(int position, byte[] value, int length) {
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    if (c[o + CELL_KIND] != INLINE) {
      return -1;
    }
    int keyLength = c[o + CELL_KEY_LENGTH] & 0xff;
    if (keyLength + length > INLINE_BYTES) {
      return -1;
    }
    int old = c[o + CELL_VALUE_LENGTH] & 0xff;
    c[o + CELL_VALUE_LENGTH] = (byte) length;
    System.arraycopy(value, 0, c, o + CELL_KEY + keyLength, length);
    return old;
  }

  /** Replaces the value at {@code position} with bytes; the position stays valid. */
  void setValue(int position, byte[] value) {
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    byte kind = c[o + CELL_KIND];
    if (kind != IN_SLAB) {
      if (kind == INLINE_KEY_OBJECT) {
        releaseObject((int) INTS.get(c, o + CELL_OBJECT));
      }
      int keyLength = c[o + CELL_KEY_LENGTH] & 0xff;
      if (keyLength + value.length <= INLINE_BYTES) {
        c[o + CELL_KIND] = INLINE;
        c[o + CELL_VALUE_LENGTH] = (byte) value.length;
        System.arraycopy(value, 0, c, o + CELL_KEY + keyLength, value.length);
      } else {
        byte[] key = Arrays.copyOfRange(c, o + CELL_KEY, o + CELL_KEY + keyLength);
        long offset = store(key, value, value.length + (value.length >>> 2), value.length);
        c[o + CELL_KIND] = IN_SLAB;
        LONGS.set(c, o + CELL_SLAB_OFFSET, offset);
      }
      return;
    }
    long offset = (long) LONGS.get(c, o + CELL_SLAB_OFFSET);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
    int oldLength = (int) INTS.get(chunk, pos + VALUE_LENGTH);
    if (oldLength < 0) {
      releaseObject(-1 - oldLength);
    }
    if (value.length <= (int) INTS.get(chunk, pos + VALUE_CAPACITY)) {
      INTS.set(chunk, pos + VALUE_LENGTH, value.length);
      System.arraycopy(value, 0, chunk, pos + HEADER + keyLength, value.length);
      return;
    }
    // Move: copy the key out first, the new place may be in a chunk that replaces this one.
    int oldSize = entrySize(keyLength, (int) INTS.get(chunk, pos + VALUE_CAPACITY));
    byte[] key = Arrays.copyOfRange(chunk, pos + HEADER, pos + HEADER + keyLength);
    free(offset, oldSize);
    long moved = store(key, value, value.length + (value.length >>> 2), value.length);
    LONGS.set(c, o + CELL_SLAB_OFFSET, moved);
    maybeCompact();
  }

  /** Replaces the value at {@code position} with an object; the position stays valid. */
  void setObject(int position, Object value) {
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    byte kind = c[o + CELL_KIND];
    if (kind == INLINE_KEY_OBJECT) {
      objects[(int) INTS.get(c, o + CELL_OBJECT)] = value;
    } else if (kind == INLINE) {
      int keyLength = c[o + CELL_KEY_LENGTH] & 0xff;
      if (keyLength <= INLINE_OBJECT_KEY_BYTES) {
        c[o + CELL_KIND] = INLINE_KEY_OBJECT;
        INTS.set(c, o + CELL_OBJECT, addObject(value));
      } else {
        byte[] key = Arrays.copyOfRange(c, o + CELL_KEY, o + CELL_KEY + keyLength);
        long offset = store(key, null, 0, -1 - addObject(value));
        c[o + CELL_KIND] = IN_SLAB;
        LONGS.set(c, o + CELL_SLAB_OFFSET, offset);
      }
    } else {
      long offset = (long) LONGS.get(c, o + CELL_SLAB_OFFSET);
      byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
      int pos = (int) offset & (CHUNK_SIZE - 1);
      int oldLength = (int) INTS.get(chunk, pos + VALUE_LENGTH);
      if (oldLength < 0) {
        objects[-1 - oldLength] = value;
      } else {
        INTS.set(chunk, pos + VALUE_LENGTH, -1 - addObject(value));
      }
    }
  }

  /** Adds {@code key}, which must be absent, with a byte value. */
  void insertValue(byte[] key, byte[] value) {
    if (key.length + value.length > INLINE_BYTES) {
      insertInSlab(key, store(key, value, value.length, value.length));
      return;
    }
    int position = insertCell(ByteKeyHash.hash(key));
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    c[o + CELL_KIND] = INLINE;
    c[o + CELL_KEY_LENGTH] = (byte) key.length;
    c[o + CELL_VALUE_LENGTH] = (byte) value.length;
    System.arraycopy(key, 0, c, o + CELL_KEY, key.length);
    System.arraycopy(value, 0, c, o + CELL_KEY + key.length, value.length);
  }

  /** Adds {@code key}, which must be absent, with an object value. */
  void insertObject(byte[] key, Object value) {
    if (key.length > INLINE_OBJECT_KEY_BYTES) {
      insertInSlab(key, store(key, null, 0, -1 - addObject(value)));
      return;
    }
    int position = insertCell(ByteKeyHash.hash(key));
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    c[o + CELL_KIND] = INLINE_KEY_OBJECT;
    c[o + CELL_KEY_LENGTH] = (byte) key.length;
    System.arraycopy(key, 0, c, o + CELL_KEY, key.length);
    INTS.set(c, o + CELL_OBJECT, addObject(value));
  }

  /** Adds a cell for {@code key} whose entry was stored in the slab at {@code offset}. */
  private void insertInSlab(byte[] key, long offset) {
    int position = insertCell(ByteKeyHash.hash(key));
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    c[o + CELL_KIND] = IN_SLAB;
    LONGS.set(c, o + CELL_SLAB_OFFSET, offset);
  }

  /** Removes the entry at {@code position}. */
  void removeAt(int position) {
    byte[] c = cellChunk(position);
    int o = cellOffset(position);
    byte kind = c[o + CELL_KIND];
    if (kind == INLINE_KEY_OBJECT) {
      releaseObject((int) INTS.get(c, o + CELL_OBJECT));
    } else if (kind == IN_SLAB) {
      long offset = (long) LONGS.get(c, o + CELL_SLAB_OFFSET);
      int length = slabInt(offset, VALUE_LENGTH);
      if (length < 0) {
        releaseObject(-1 - length);
      }
      free(offset, entrySize(slabInt(offset, KEY_LENGTH), slabInt(offset, VALUE_CAPACITY)));
    }
    int mask = cellMask;
    int hole = position;
    for (int j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      byte[] next = cellChunk(j);
      int nextOffset = cellOffset(j);
      if (next[nextOffset + CELL_KIND] == EMPTY) {
        break;
      }
      int home = (int) INTS.get(next, nextOffset + CELL_HASH) & mask;
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      boolean stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
      if (!stays) {
        System.arraycopy(next, nextOffset, cellChunk(hole), cellOffset(hole), 1 << CELL_BITS);
        hole = j;
      }
    }
    Arrays.fill(cellChunk(hole), cellOffset(hole), cellOffset(hole) + (1 << CELL_BITS), (byte) 0);
    size--;
    lastKey = null;
    maybeCompact();
  }

  /** The first occupied position at or after {@code from}, or {@code -1}; for iteration. */
  int nextPosition(int from) {
    for (int i = from; i <= cellMask; i++) {
      if (kind(i) != EMPTY) {
        return i;
      }
    }
    return -1;
  }

  /** Claims an empty cell for a new entry of {@code hash} and returns its position. */
  private int insertCell(int hash) {
    if (size >= resizeAt) {
      resize(2 * (cellMask + 1));
    }
    int mask = cellMask;
    int i = hash & mask;
    while (kind(i) != EMPTY) {
      i = (i + 1) & mask;
    }
    INTS.set(cellChunk(i), cellOffset(i) + CELL_HASH, hash);
    size++;
    lastKey = null;
    return i;
  }

  private void resize(int capacity) {
    byte[][] old = cells;
    int oldCapacity = cellMask + 1;
    cells = newCells(capacity);
    cellMask = capacity - 1;
    resizeAt = threshold(capacity);
    for (int k = 0; k < oldCapacity; k++) {
      byte[] from = old[k >>> CELLS_PER_CHUNK_BITS];
      int fromOffset = cellOffset(k);
      if (from[fromOffset + CELL_KIND] == EMPTY) {
        continue;
      }
      int i = (int) INTS.get(from, fromOffset + CELL_HASH) & cellMask;
      while (kind(i) != EMPTY) {
        i = (i + 1) & cellMask;
      }
      System.arraycopy(from, fromOffset, cellChunk(i), cellOffset(i), 1 << CELL_BITS);
    }
  }

  private static int threshold(int capacity) {
    return capacity >= 1 << 30 ? Integer.MAX_VALUE : (int) (capacity * 0.75);
  }

  /** Copies the live slab entries into new chunks, in cell order, and drops the old chunks. */
  void compact() {
    byte[][] oldChunks = chunks;
    long live = allocatedBytes - deadBytes;
    chunks =
        new byte[][] {
          new byte[(int) Math.min(SLAB_CHUNK_LENGTH, Math.max(FIRST_CHUNK_SIZE, live))]
        };
    top = 8;
    allocatedBytes = 0;
    deadBytes = 0;
    Arrays.fill(freeHeads, -1);
    for (int i = 0; i <= cellMask; i++) {
      byte[] c = cellChunk(i);
      int o = cellOffset(i);
      if (c[o + CELL_KIND] != IN_SLAB) {
        continue;
      }
      long offset = (long) LONGS.get(c, o + CELL_SLAB_OFFSET);
      byte[] from = oldChunks[(int) (offset >>> CHUNK_BITS)];
      int pos = (int) offset & (CHUNK_SIZE - 1);
      int size =
          entrySize(
              (int) INTS.get(from, pos + KEY_LENGTH), (int) INTS.get(from, pos + VALUE_CAPACITY));
      long moved = allocate(size);
      System.arraycopy(
          from, pos, chunks[(int) (moved >>> CHUNK_BITS)], (int) moved & (CHUNK_SIZE - 1), size);
      LONGS.set(c, o + CELL_SLAB_OFFSET, moved);
    }
  }

  // ---- slab

  private static int entrySize(int keyLength, int valueCapacity) {
    return (HEADER + keyLength + valueCapacity + 7) & ~7;
  }

  /**
   * Writes a new entry of {@code key} and {@code value} (null: no bytes) with room for at least
   * {@code minCapacity} value bytes, and {@code valueLengthField} as its value length.
   */
  private long store(byte[] key, byte[] value, int minCapacity, int valueLengthField) {
    long requested = (long) HEADER + key.length + minCapacity;
    if (requested > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("state entry too large: " + requested + " bytes");
    }
    int size = entrySize(key.length, minCapacity);
    long offset = allocate(size);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    INTS.set(chunk, pos + KEY_LENGTH, key.length);
    INTS.set(chunk, pos + VALUE_LENGTH, valueLengthField);
    INTS.set(chunk, pos + VALUE_CAPACITY, size - HEADER - key.length);
    System.arraycopy(key, 0, chunk, pos + HEADER, key.length);
    if (value != null) {
      System.arraycopy(value, 0, chunk, pos + HEADER + key.length, value.length);
    }
    return offset;
  }

  private long allocate(int size) {
    if (size <= MAX_FREE_LISTED) {
      int sizeClass = size >>> 3;
      long head = freeHeads[sizeClass];
      if (head >= 0) {
        byte[] chunk = chunks[(int) (head >>> CHUNK_BITS)];
        freeHeads[sizeClass] = (long) LONGS.get(chunk, (int) head & (CHUNK_SIZE - 1));
        deadBytes -= size;
        return head;
      }
    }
    int last = chunks.length - 1;
    byte[] chunk = chunks[last];
    if ((long) top + size > chunk.length) {
      if (chunk.length < SLAB_CHUNK_LENGTH && (long) top + size <= SLAB_CHUNK_LENGTH) {
        // The last chunk is still growing towards its full size.
        chunks[last] =
            Arrays.copyOf(
                chunk, (int) Math.min(SLAB_CHUNK_LENGTH, Math.max(2L * chunk.length, top + size)));
      } else {
        // The rest of the last chunk stays unused; count it as dead space.
        allocatedBytes += chunk.length - top;
        deadBytes += chunk.length - top;
        chunks = Arrays.copyOf(chunks, chunks.length + 1);
        last++;
        // An entry larger than a chunk gets a chunk of exactly its own size.
        chunks[last] = new byte[Math.max(SLAB_CHUNK_LENGTH, size)];
        top = 0;
      }
    }
    long offset = ((long) last << CHUNK_BITS) | top;
    top += size;
    allocatedBytes += size;
    // An oversized chunk holds its one entry at offset 0 and is full after it, so offsets within
    // a chunk always stay below CHUNK_SIZE.
    return offset;
  }

  private void free(long offset, int size) {
    deadBytes += size;
    if (size <= MAX_FREE_LISTED) {
      int sizeClass = size >>> 3;
      byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
      LONGS.set(chunk, (int) offset & (CHUNK_SIZE - 1), freeHeads[sizeClass]);
      freeHeads[sizeClass] = offset;
    }
  }

  private void maybeCompact() {
    if (deadBytes > MIN_COMPACTION_WASTE && deadBytes > allocatedBytes - deadBytes) {
      compact();
    }
  }

  /** Bytes of the slab that belong to no live entry (for tests and size estimates). */
  long deadBytes() {
    return deadBytes;
  }

  private static long[] newFreeHeads() {
    long[] heads = new long[MAX_FREE_LISTED / 8 + 1];
    Arrays.fill(heads, -1);
    return heads;
  }

  // ---- objects

  private int addObject(Object value) {
    int index;
    if (freeObjectCount > 0) {
      index = freeObjects[--freeObjectCount];
    } else {
      if (objectCount == objects.length) {
        objects = Arrays.copyOf(objects, Math.max(8, objects.length * 2));
      }
      index = objectCount++;
    }
    objects[index] = value;
    return index;
  }

  private void releaseObject(int index) {
    objects[index] = null;
    if (freeObjectCount == freeObjects.length) {
      freeObjects = Arrays.copyOf(freeObjects, Math.max(8, freeObjects.length * 2));
    }
    freeObjects[freeObjectCount++] = index;
  }
}
