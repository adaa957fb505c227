package io.arcon.runner.state.history;

import io.arcon.state.ByteKeyHash;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The writes the {@link ChainRecorder}s of one instance recorded and have not yet put into their
 * chains (one buffer per instance, so its memory does not grow with the exported states). A write
 * only copies its row key, stamp and op to the end of this buffer; a flush then takes the buffer
 * row by row (grouped by row and segment, each row's writes in write order) and appends each row's
 * entries in one {@code appendAll}: one lookup of a chain per row and flush on heap, one merge on
 * rocksdb, one rewrite of the list on lmdb, instead of one per write; and the chains' memory is
 * touched once per row instead of at random on every write.
 *
 * <p>The owner flushes before anything reads or changes the chains (a version read, a prune, a
 * snapshot, a base) and when the buffer is full. The chains then replay as if every write had been
 * appended directly in write order: a row's entries keep their order (rows are independent), and of
 * a put row's writes at one stamp only the last is kept within a flush, the one a replay takes
 * anyway. A flush does not replace a put row's last entry of the previous flush at the same stamp;
 * readers take the later of the two (see {@link ChainLayout}).
 */
final class ChainWriteBuffer {
  /** Writes held before a flush. */
  static final int MAX_WRITES = 1 << 18;

  /** Bytes of row keys and ops held before a flush. */
  static final int MAX_BYTES = 16 << 20;

  /** Where a flush puts a row's entries. */
  interface Chains {
    /**
     * Appends {@code entries} to the chain segment {@code segment} of the row whose key is {@code
     * rowKey[offset, offset + length)}, of which the cell's address is the first {@code
     * addressLength} bytes, written by the recorder numbered {@code recorder}.
     */
    void appendAll(
        int recorder,
        byte[] rowKey,
        int offset,
        int length,
        int addressLength,
        long segment,
        List<byte[]> entries);
  }

  private final long segmentMillis;

  private byte[] bytes = new byte[64 << 10];
  private int used;
  private int count;
  private int[] recorders = new int[1024];
  private int[] starts = new int[1024];
  private int[] keyLengths = new int[1024];
  private int[] opLengths = new int[1024];
  private int[] addressLengths = new int[1024];
  private long[] stamps = new long[1024];
  private boolean[] keepAll = new boolean[1024];

  // Grouping, reused across flushes: per group its first and last write, per write the next one.
  private int[] slots = new int[0];
  private int[] groupFirst = new int[0];
  private int[] groupLast = new int[0];
  private int[] groupHashes = new int[0];
  private long[] groupSegments = new long[0];
  private int[] next = new int[0];

  ChainWriteBuffer(long segmentMillis) {
    this.segmentMillis = segmentMillis;
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** Whether the buffer should be flushed before it takes more. */
  boolean isFull() {
    return count >= MAX_WRITES || used >= MAX_BYTES;
  }

  /**
   * Holds one write of recorder {@code recorder}: {@code op} at {@code stamp} to the row {@code
   * rowKey}; {@code keepAll} false for a put row's write, which the row's next write at the same
   * stamp supersedes.
   */
  void add(int recorder, byte[] rowKey, int addressLength, long stamp, byte[] op, boolean keepAll) {
    if (count == starts.length) {
      growEntries();
    }
    int needed = rowKey.length + op.length;
    if (used + needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + needed));
    }
    System.arraycopy(rowKey, 0, bytes, used, rowKey.length);
    System.arraycopy(op, 0, bytes, used + rowKey.length, op.length);
    recorders[count] = recorder;
    starts[count] = used;
    keyLengths[count] = rowKey.length;
    opLengths[count] = op.length;
    addressLengths[count] = addressLength;
    stamps[count] = stamp;
    this.keepAll[count] = keepAll;
    used += needed;
    count++;
  }

  /** Forgets every held write (the chains they were for are dropped). */
  void clear() {
    count = 0;
    used = 0;
  }

  /** Appends every held write to its chain, row by row, and empties the buffer. */
  void flushTo(Chains chains) {
    if (count == 0) {
      return;
    }
    int groups = group();
    List<byte[]> entries = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      entries.clear();
      for (int w = groupFirst[g]; w >= 0; w = next[w]) {
        int after = next[w];
        if (!keepAll[w] && after >= 0 && !keepAll[after] && stamps[after] == stamps[w]) {
          continue; // superseded by the put row's next write at the same stamp
        }
        entries.add(ChainLayout.entry(stamps[w], bytes, starts[w] + keyLengths[w], opLengths[w]));
      }
      int first = groupFirst[g];
      chains.appendAll(
          recorders[first],
          bytes,
          starts[first],
          keyLengths[first],
          addressLengths[first],
          groupSegments[g],
          entries);
    }
    clear();
  }

  /** Links the held writes into groups of one row and segment; returns the number of groups. */
  private int group() {
    int capacity = Integer.highestOneBit(Math.max(16, count) * 2);
    if (slots.length < capacity) {
      slots = new int[capacity];
    }
    if (groupFirst.length < count) {
      int size = starts.length;
      groupFirst = new int[size];
      groupLast = new int[size];
      groupHashes = new int[size];
      groupSegments = new long[size];
      next = new int[size];
    }
    int mask = capacity - 1;
    Arrays.fill(slots, 0, capacity, -1);
    int groups = 0;
    for (int w = 0; w < count; w++) {
      long segment = ChainLayout.segmentOf(stamps[w], segmentMillis);
      int hash = ByteKeyHash.hash(bytes, starts[w], keyLengths[w]) ^ Long.hashCode(segment);
      int slot = hash & mask;
      int g;
      while ((g = slots[slot]) >= 0) {
        if (groupHashes[g] == hash && groupSegments[g] == segment && sameRow(groupFirst[g], w)) {
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (g < 0) {
        g = groups++;
        slots[slot] = g;
        groupFirst[g] = w;
        groupHashes[g] = hash;
        groupSegments[g] = segment;
      } else {
        next[groupLast[g]] = w;
      }
      groupLast[g] = w;
      next[w] = -1;
    }
    return groups;
  }

  private boolean sameRow(int a, int b) {
    return keyLengths[a] == keyLengths[b]
        && Arrays.equals(
            bytes,
            starts[a],
            starts[a] + keyLengths[a],
            bytes,
            starts[b],
            starts[b] + keyLengths[b]);
  }

  private void growEntries() {
    int size = starts.length * 2;
    recorders = Arrays.copyOf(recorders, size);
    starts = Arrays.copyOf(starts, size);
    keyLengths = Arrays.copyOf(keyLengths, size);
    opLengths = Arrays.copyOf(opLengths, size);
    addressLengths = Arrays.copyOf(addressLengths, size);
    stamps = Arrays.copyOf(stamps, size);
    keepAll = Arrays.copyOf(keepAll, size);
  }
}
