package io.arcon.state.heap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A hash map from {@code byte[]} keys (by content) to values that are either bytes stored inline or
 * an object, with no per-entry objects for inline entries.
 *
 * <p>Layout: an open-addressing table of {@code long} slots (linear probing, backward-shift
 * deletion, so no tombstones), each slot holding the key's 32-bit hash in its upper half and the
 * entry's reference in its lower half ({@code 0} = empty). The reference is the entry's byte offset
 * divided by 8 in a sequence of large {@code byte[]} chunks (the slab) where the entry is stored as
 * {@code [int keyLength][int valueLength][int valueCapacity][key][value][slack]}, 8-byte aligned. A
 * lookup therefore touches one slot (the hash in it rules out almost every other key without
 * reading the slab) and one entry whose key and value sit side by side: about two cache misses on a
 * large table, and nothing for the garbage collector to trace.
 *
 * <p>An entry whose value is an object (a {@link FramedList}) has {@code valueLength = -1 - i}
 * where {@code i} indexes a side array of objects.
 *
 * <p>A value that fits the entry's capacity is overwritten in place; a larger one moves the entry
 * to a new place with room to spare. Space of removed and moved entries goes to per-size free lists
 * (reused by entries of the same size) and the slab is compacted when the dead bytes outnumber the
 * live ones.
 *
 * <p>Positions ({@link #indexOf}) are slot indexes, valid until the next insertion or removal.
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

  /** Free lists for entries of up to this many bytes, one per multiple of 8. */
  private static final int MAX_FREE_LISTED = 1024;

  private static final int MIN_COMPACTION_WASTE = 1 << 20;
  private static final int MIN_SLOTS = 16;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private long[] slots = new long[MIN_SLOTS];
  private int size;
  private int resizeAt = threshold(MIN_SLOTS);

  private byte[][] chunks = {new byte[FIRST_CHUNK_SIZE]};

  /** Offset of the first unallocated byte in the last chunk. */
  private int top = 8; // offset 0 would make reference 0, the empty slot

  /** Head offset of the free list of each size class ({@code size / 8}), -1 when empty. */
  private final long[] freeHeads = newFreeHeads();

  /** Bytes of the slab allocated to entries, dead or alive, and of those the dead ones. */
  private long allocatedBytes;

  private long deadBytes;

  private Object[] objects = new Object[0];
  private int[] freeObjects = new int[0];
  private int freeObjectCount;
  private int objectCount;

  int size() {
    return size;
  }

  /** Bytes held by the slots, the slab and the object references (not the objects). */
  long memoryBytes() {
    long total = 8L * slots.length + 4L * objects.length;
    for (byte[] chunk : chunks) {
      total += chunk.length;
    }
    return total;
  }

  /** The position of {@code key}, or {@code -1} when it is absent. */
  int indexOf(byte[] key) {
    int hash = ByteKeyStrategy.hash(key);
    long[] s = slots;
    int mask = s.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      long slot = s[i];
      if (slot == 0) {
        return -1;
      }
      if ((int) (slot >>> 32) == hash && keyEquals(slot, key)) {
        return i;
      }
    }
  }

  private boolean keyEquals(long slot, byte[] key) {
    long offset = offsetOf(slot);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
    return keyLength == key.length
        && Arrays.equals(chunk, pos + HEADER, pos + HEADER + keyLength, key, 0, keyLength);
  }

  /** Whether the entry at {@code position} holds an object rather than inline bytes. */
  boolean isObject(int position) {
    return valueLengthField(slots[position]) < 0;
  }

  /** The object of an entry that holds one. */
  Object object(int position) {
    return objects[-1 - valueLengthField(slots[position])];
  }

  /** Length of the inline value at {@code position}. */
  int valueLength(int position) {
    int length = valueLengthField(slots[position]);
    if (length < 0) {
      throw new IllegalStateException("the entry holds an object");
    }
    return length;
  }

  /** A copy of the inline value at {@code position}. */
  byte[] value(int position) {
    long offset = offsetOf(slots[position]);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
    int valueLength = (int) INTS.get(chunk, pos + VALUE_LENGTH);
    if (valueLength < 0) {
      throw new IllegalStateException("the entry holds an object");
    }
    int start = pos + HEADER + keyLength;
    return Arrays.copyOfRange(chunk, start, start + valueLength);
  }

  /** A copy of the key at {@code position}. */
  byte[] key(int position) {
    long offset = offsetOf(slots[position]);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int keyLength = (int) INTS.get(chunk, pos + KEY_LENGTH);
    return Arrays.copyOfRange(chunk, pos + HEADER, pos + HEADER + keyLength);
  }

  /** Replaces the value at {@code position} with inline bytes; the position stays valid. */
  void setValue(int position, byte[] value) {
    long slot = slots[position];
    long offset = offsetOf(slot);
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
    slots[position] = (slot & 0xFFFFFFFF00000000L) | referenceOf(moved);
    maybeCompact();
  }

  /** Replaces the value at {@code position} with an object; the position stays valid. */
  void setObject(int position, Object value) {
    long slot = slots[position];
    long offset = offsetOf(slot);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int oldLength = (int) INTS.get(chunk, pos + VALUE_LENGTH);
    if (oldLength < 0) {
      objects[-1 - oldLength] = value;
    } else {
      INTS.set(chunk, pos + VALUE_LENGTH, -1 - addObject(value));
    }
  }

  /** Adds {@code key}, which must be absent, with an inline value. */
  void insertValue(byte[] key, byte[] value) {
    long offset = store(key, value, value.length, value.length);
    insertSlot(ByteKeyStrategy.hash(key), offset);
  }

  /** Adds {@code key}, which must be absent, with an object value. */
  void insertObject(byte[] key, Object value) {
    long offset = store(key, null, 0, -1 - addObject(value));
    insertSlot(ByteKeyStrategy.hash(key), offset);
  }

  /** Removes the entry at {@code position}. */
  void removeAt(int position) {
    long slot = slots[position];
    long offset = offsetOf(slot);
    byte[] chunk = chunks[(int) (offset >>> CHUNK_BITS)];
    int pos = (int) offset & (CHUNK_SIZE - 1);
    int length = (int) INTS.get(chunk, pos + VALUE_LENGTH);
    if (length < 0) {
      releaseObject(-1 - length);
    }
    free(
        offset,
        entrySize(
            (int) INTS.get(chunk, pos + KEY_LENGTH), (int) INTS.get(chunk, pos + VALUE_CAPACITY)));
    long[] s = slots;
    int mask = s.length - 1;
    int hole = position;
    for (int j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      long next = s[j];
      if (next == 0) {
        break;
      }
      int home = (int) (next >>> 32) & mask;
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      boolean stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
      if (!stays) {
        s[hole] = next;
        hole = j;
      }
    }
    s[hole] = 0;
    size--;
    maybeCompact();
  }

  /** The first occupied position at or after {@code from}, or {@code -1}; for iteration. */
  int nextPosition(int from) {
    long[] s = slots;
    for (int i = from; i < s.length; i++) {
      if (s[i] != 0) {
        return i;
      }
    }
    return -1;
  }

  // ---- slots

  private void insertSlot(int hash, long offset) {
    if (size >= resizeAt) {
      resize(slots.length * 2);
    }
    long[] s = slots;
    int mask = s.length - 1;
    int i = hash & mask;
    while (s[i] != 0) {
      i = (i + 1) & mask;
    }
    s[i] = ((long) hash << 32) | referenceOf(offset);
    size++;
  }

  private void resize(int capacity) {
    long[] old = slots;
    long[] s = new long[capacity];
    int mask = capacity - 1;
    for (long slot : old) {
      if (slot != 0) {
        int i = (int) (slot >>> 32) & mask;
        while (s[i] != 0) {
          i = (i + 1) & mask;
        }
        s[i] = slot;
      }
    }
    slots = s;
    resizeAt = threshold(capacity);
  }

  private static int threshold(int capacity) {
    return capacity >= 1 << 30 ? Integer.MAX_VALUE : (int) (capacity * 0.75);
  }

  private int valueLengthField(long slot) {
    long offset = offsetOf(slot);
    return (int)
        INTS.get(
            chunks[(int) (offset >>> CHUNK_BITS)],
            ((int) offset & (CHUNK_SIZE - 1)) + VALUE_LENGTH);
  }

  private static long offsetOf(long slot) {
    return (slot & 0xFFFFFFFFL) << 3;
  }

  private static long referenceOf(long offset) {
    return offset >>> 3;
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
      if (chunk.length < CHUNK_SIZE && (long) top + size <= CHUNK_SIZE) {
        // The last chunk is still growing towards its full size.
        chunks[last] =
            Arrays.copyOf(
                chunk, (int) Math.min(CHUNK_SIZE, Math.max(2L * chunk.length, top + size)));
      } else {
        // The rest of the last chunk stays unused; count it as dead space.
        allocatedBytes += chunk.length - top;
        deadBytes += chunk.length - top;
        if (((long) chunks.length << CHUNK_BITS) >= 1L << 35) {
          throw new IllegalStateException("heap state table exceeds 32 GiB");
        }
        chunks = Arrays.copyOf(chunks, chunks.length + 1);
        last++;
        // An entry larger than a chunk gets a chunk of its own size.
        chunks[last] = new byte[Math.max(CHUNK_SIZE, size)];
        top = 0;
      }
    }
    long offset = ((long) last << CHUNK_BITS) | top;
    top += size;
    allocatedBytes += size;
    if (top > CHUNK_SIZE - 8) {
      // An oversized chunk (or a full one) takes no further entries: the next offset would alias
      // the following chunk.
      allocatedBytes += chunks[last].length - top;
      deadBytes += chunks[last].length - top;
      top = chunks[last].length;
    }
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

  /** Copies the live entries into new chunks, in slot order, and drops the old chunks. */
  void compact() {
    byte[][] oldChunks = chunks;
    long live = allocatedBytes - deadBytes;
    chunks = new byte[][] {new byte[(int) Math.min(CHUNK_SIZE, Math.max(FIRST_CHUNK_SIZE, live))]};
    top = 8;
    allocatedBytes = 0;
    deadBytes = 0;
    Arrays.fill(freeHeads, -1);
    long[] s = slots;
    for (int i = 0; i < s.length; i++) {
      long slot = s[i];
      if (slot == 0) {
        continue;
      }
      long offset = offsetOf(slot);
      byte[] from = oldChunks[(int) (offset >>> CHUNK_BITS)];
      int pos = (int) offset & (CHUNK_SIZE - 1);
      int size =
          entrySize(
              (int) INTS.get(from, pos + KEY_LENGTH), (int) INTS.get(from, pos + VALUE_CAPACITY));
      long moved = allocate(size);
      System.arraycopy(
          from, pos, chunks[(int) (moved >>> CHUNK_BITS)], (int) moved & (CHUNK_SIZE - 1), size);
      s[i] = (slot & 0xFFFFFFFF00000000L) | referenceOf(moved);
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
