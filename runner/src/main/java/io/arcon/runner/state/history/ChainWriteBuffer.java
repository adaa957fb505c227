package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
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
  /** Writes held before a flush (so groups fit {@link #GROUP_BITS}). */
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

  // Grouping, reused across flushes (all sized by writes or by groups, see flushTo).
  private int[] slots = new int[0];
  private int[] writeGroup = new int[0];
  private boolean[] dropped = new boolean[0];
  private int[] groupAddressLengths = new int[0];
  private int[] groupLast = new int[0];
  private long[] groupLastStamps = new long[0];
  private boolean[] groupLastKeepAll = new boolean[0];
  private int[] groupHashes = new int[0];
  private long[] groupSegments = new long[0];
  private int[] groupCounts = new int[0];
  private int[] groupBytes = new int[0];
  private int[] groupCursors = new int[0];
  private int[] groupKeyStarts = new int[0];
  private int[] groupKeyLengths = new int[0];
  private int[] groupRecorders = new int[0];
  private byte[] groupKeys = new byte[0];
  private byte[] ordered = new byte[0];

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

  /**
   * Appends every held write to its chain, row by row, and empties the buffer.
   *
   * <p>Every pass reads the held writes in the order they came, so the buffer is read sequentially
   * once per pass: (1) each write's group (row and segment) from a table the size of the groups,
   * dropping superseded writes; (2) the groups put in about key order ({@link #sortedGroups}), so
   * that the chains are appended to in that order (neighbouring keys of an ordered index, a
   * B-tree's page after page); (3) each kept write's entry copied to its group's place in one
   * group-ordered array; (4) each group's entries handed over from there. Walking each group's
   * writes through the buffer instead cost a cache miss per write, the most of a flush's time.
   */
  void flushTo(Chains chains) {
    if (count == 0) {
      return;
    }
    int groups = group();
    int[] order = sortedGroups(groups);
    // Group-ordered entries: each a 4-byte length, then the entry (stamp, op).
    int total = 0;
    for (int g : order) {
      groupCursors[g] = total;
      total += groupBytes[g];
    }
    if (ordered.length < total) {
      ordered = new byte[Math.max(total, ordered.length * 2)];
    }
    for (int w = 0; w < count; w++) {
      if (!dropped[w]) {
        int g = writeGroup[w];
        groupCursors[g] = putEntry(w, groupCursors[g]);
      }
    }
    List<byte[]> entries = new ArrayList<>();
    int position = 0;
    for (int g : order) {
      entries.clear();
      for (int i = 0; i < groupCounts[g]; i++) {
        int length = OrderedBytes.readInt(ordered, position);
        entries.add(Arrays.copyOfRange(ordered, position + 4, position + 4 + length));
        position += 4 + length;
      }
      chains.appendAll(
          groupRecorders[g],
          groupKeys,
          groupKeyStarts[g],
          groupKeyLengths[g],
          groupAddressLengths[g],
          groupSegments[g],
          entries);
    }
    clear();
  }

  /**
   * Assigns every held write its group (one per row and segment) and drops the writes a put row's
   * next write at the same stamp supersedes; returns the number of groups. Each group's row key is
   * copied once, so that matching a write reads only the group table and the write itself.
   */
  private int group() {
    if (writeGroup.length < count) {
      writeGroup = new int[starts.length];
      dropped = new boolean[starts.length];
    }
    if (slots.length == 0) {
      slots = new int[64]; // then kept at the size the last flush's groups needed
    }
    Arrays.fill(slots, -1);
    int mask = slots.length - 1;
    int groups = 0;
    int keyBytes = 0;
    for (int w = 0; w < count; w++) {
      long segment = ChainLayout.segmentOf(stamps[w], segmentMillis);
      int hash = ByteKeyHash.hash(bytes, starts[w], keyLengths[w]) ^ Long.hashCode(segment);
      int slot = hash & mask;
      int g;
      while ((g = slots[slot]) >= 0) {
        if (groupHashes[g] == hash && groupSegments[g] == segment && isGroupRow(g, w)) {
          break;
        }
        slot = (slot + 1) & mask;
      }
      dropped[w] = false;
      if (g < 0) {
        g = groups++;
        if (g == groupAddressLengths.length) {
          growGroups();
        }
        slots[slot] = g;
        groupAddressLengths[g] = addressLengths[w];
        groupHashes[g] = hash;
        groupSegments[g] = segment;
        groupCounts[g] = 0;
        groupBytes[g] = 0;
        if (groupKeys.length < keyBytes + keyLengths[w]) {
          groupKeys = Arrays.copyOf(groupKeys, Math.max(4096, 2 * (keyBytes + keyLengths[w])));
        }
        System.arraycopy(bytes, starts[w], groupKeys, keyBytes, keyLengths[w]);
        groupKeyStarts[g] = keyBytes;
        groupKeyLengths[g] = keyLengths[w];
        groupRecorders[g] = recorders[w];
        keyBytes += keyLengths[w];
        if (groups * 2 > slots.length) {
          rehash(groups);
          mask = slots.length - 1;
        }
      } else {
        int previous = groupLast[g];
        if (!keepAll[w] && !groupLastKeepAll[g] && groupLastStamps[g] == stamps[w]) {
          dropped[previous] = true; // superseded by the put row's next write at the same stamp
          groupCounts[g]--;
          groupBytes[g] -= entrySize(previous);
        }
      }
      groupLast[g] = w;
      groupLastStamps[g] = stamps[w];
      groupLastKeepAll[g] = keepAll[w];
      writeGroup[w] = g;
      groupCounts[g]++;
      groupBytes[g] += entrySize(w);
    }
    return groups;
  }

  /** Bits of a group's number in its sort key (groups are at most {@link #MAX_WRITES}). */
  private static final int GROUP_BITS = 18;

  /** Row key bytes before those a sort key takes: {@code lp(key)}'s length, about constant. */
  private static final int SORT_KEY_SKIP = 4;

  /**
   * The groups in about the order of their rows' keys, for locality only (neighbouring chains
   * appended one after the other): a primitive sort of sort keys that hold the row key's bytes
   * after its first {@value #SORT_KEY_SKIP} (the key's length) in the high bits and the group's
   * number in the low {@value #GROUP_BITS}, then each run of equal high bits (one row's segments,
   * or rows with a long common prefix) by whole key and segment. Keys of different lengths may
   * interleave. A comparison sort of all groups by their whole keys cost a flush on lmdb, whose
   * segments are short, a sixth of its time.
   */
  private int[] sortedGroups(int groups) {
    if (groups > 1 << GROUP_BITS) {
      throw new IllegalStateException(
          groups + " groups in one flush: the buffer holds at most " + MAX_WRITES + " writes");
    }
    long[] sortKeys = new long[groups];
    int prefixBits = 64 - GROUP_BITS;
    for (int g = 0; g < groups; g++) {
      long prefix = 0;
      int from = groupKeyStarts[g] + SORT_KEY_SKIP;
      int end = groupKeyStarts[g] + groupKeyLengths[g];
      for (int i = 0; i < 8; i++) {
        int at = from + i;
        prefix = (prefix << 8) | (at < end ? groupKeys[at] & 0xFF : 0);
      }
      // Unsigned: the sort is signed, so flip the top bit.
      sortKeys[g] = ((prefix >>> GROUP_BITS) ^ (1L << (prefixBits - 1))) << GROUP_BITS | g;
    }
    Arrays.sort(sortKeys);
    int[] order = new int[groups];
    int mask = (1 << GROUP_BITS) - 1;
    for (int i = 0; i < groups; i++) {
      order[i] = (int) (sortKeys[i] & mask);
    }
    for (int start = 0, end; start < groups; start = end) {
      end = start + 1;
      while (end < groups && sortKeys[end] >>> GROUP_BITS == sortKeys[start] >>> GROUP_BITS) {
        end++;
      }
      if (end - start > 1) {
        sortRun(order, start, end);
      }
    }
    return order;
  }

  /** Sorts {@code order[from, to)} by recorder, whole row key and segment. */
  private void sortRun(int[] order, int from, int to) {
    if (to - from <= 16) {
      for (int i = from + 1; i < to; i++) {
        int g = order[i];
        int j = i - 1;
        while (j >= from && compareGroups(order[j], g) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = g;
      }
      return;
    }
    Integer[] run = new Integer[to - from];
    for (int i = from; i < to; i++) {
      run[i - from] = order[i];
    }
    Arrays.sort(run, this::compareGroups);
    for (int i = from; i < to; i++) {
      order[i] = run[i - from];
    }
  }

  private int compareGroups(int a, int b) {
    int byRecorder = Integer.compare(groupRecorders[a], groupRecorders[b]);
    if (byRecorder != 0) {
      return byRecorder;
    }
    int byRow =
        Arrays.compareUnsigned(
            groupKeys,
            groupKeyStarts[a],
            groupKeyStarts[a] + groupKeyLengths[a],
            groupKeys,
            groupKeyStarts[b],
            groupKeyStarts[b] + groupKeyLengths[b]);
    return byRow != 0 ? byRow : Long.compare(groupSegments[a], groupSegments[b]);
  }

  /** Bytes of write {@code w}'s entry in the group-ordered array: length, stamp, op. */
  private int entrySize(int w) {
    return 4 + ChainLayout.ENTRY_HEADER_BYTES + opLengths[w];
  }

  /** Writes write {@code w}'s length-prefixed entry at {@code position}; returns where it ends. */
  private int putEntry(int w, int position) {
    int length = ChainLayout.ENTRY_HEADER_BYTES + opLengths[w];
    writeInt(ordered, position, length);
    ChainLayout.writeStamp(ordered, position + 4, stamps[w]);
    System.arraycopy(
        bytes,
        starts[w] + keyLengths[w],
        ordered,
        position + 4 + ChainLayout.ENTRY_HEADER_BYTES,
        opLengths[w]);
    return position + 4 + length;
  }

  /** Big-endian, as {@link OrderedBytes#readInt} reads it back. */
  private static void writeInt(byte[] target, int position, int value) {
    target[position] = (byte) (value >>> 24);
    target[position + 1] = (byte) (value >>> 16);
    target[position + 2] = (byte) (value >>> 8);
    target[position + 3] = (byte) value;
  }

  /** Whether write {@code w} is to the row of group {@code g}. */
  private boolean isGroupRow(int g, int w) {
    int length = groupKeyLengths[g];
    return length == keyLengths[w]
        && Arrays.equals(
            groupKeys,
            groupKeyStarts[g],
            groupKeyStarts[g] + length,
            bytes,
            starts[w],
            starts[w] + length);
  }

  /** Doubles the slot table for {@code groups} groups. */
  private void rehash(int groups) {
    slots = new int[slots.length * 2];
    Arrays.fill(slots, -1);
    int mask = slots.length - 1;
    for (int g = 0; g < groups; g++) {
      int slot = groupHashes[g] & mask;
      while (slots[slot] >= 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = g;
    }
  }

  private void growGroups() {
    int size = Math.max(1024, groupAddressLengths.length * 2);
    groupAddressLengths = Arrays.copyOf(groupAddressLengths, size);
    groupLast = Arrays.copyOf(groupLast, size);
    groupLastStamps = Arrays.copyOf(groupLastStamps, size);
    groupLastKeepAll = Arrays.copyOf(groupLastKeepAll, size);
    groupHashes = Arrays.copyOf(groupHashes, size);
    groupSegments = Arrays.copyOf(groupSegments, size);
    groupCounts = Arrays.copyOf(groupCounts, size);
    groupBytes = Arrays.copyOf(groupBytes, size);
    groupCursors = Arrays.copyOf(groupCursors, size);
    groupKeyStarts = Arrays.copyOf(groupKeyStarts, size);
    groupKeyLengths = Arrays.copyOf(groupKeyLengths, size);
    groupRecorders = Arrays.copyOf(groupRecorders, size);
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
