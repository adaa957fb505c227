package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import io.arcon.state.ByteKeyHash;
import io.arcon.state.PackedOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The writes the {@link ChainRecorder}s of one instance recorded and have not yet put into the
 * history (one buffer per instance, so its memory does not grow with the exported states). A write
 * only copies its row key, stamp and op to the end of this buffer; a flush then writes the buffer
 * out as {@link ChainRun}s: the rows it touched in key order, each row's writes in write order, one
 * run per segment. A flush's cost is thus a sort of the rows it touched and a few sequential
 * copies, whatever the engine: no lookup or write per row (a heap table's ordered index, a rocksdb
 * merge, an lmdb rewrite of a list were most of a flush's time when chains were lists per row).
 *
 * <p>The owner flushes before anything reads or changes the history (a version read, a prune, a
 * snapshot, a base) and when the buffer is full. The chains then replay as if every write had been
 * appended to its row directly in write order (see {@link ChainLayout}), and of a put row's writes
 * at one stamp only the last is kept within a flush, the one a replay takes anyway. A flush does
 * not replace a put row's last entry of the previous flush at the same stamp; readers take the
 * later of the two.
 */
final class ChainWriteBuffer {
  /** Writes held before a flush (so groups fit {@link #GROUP_BITS}). */
  static final int MAX_WRITES = 1 << 18;

  /** Bytes of row keys and ops held before a flush. */
  static final int MAX_BYTES = 16 << 20;

  private final long segmentMillis;

  private byte[] bytes = new byte[64 << 10];
  private int used;
  private int count;
  private int[] recorders = new int[1024];
  private int[] starts = new int[1024];
  private int[] keyLengths = new int[1024];

  /** Per write: bytes of its op held, those a page stores ({@link ChainRun#storedOpBytes}). */
  private int[] opLengths = new int[1024];

  private int[] addressLengths = new int[1024];
  private long[] stamps = new long[1024];
  private boolean[] keepAll = new boolean[1024];

  /** Per write: whether its op starts with its stamp, which is then not held (see add). */
  private boolean[] elided = new boolean[1024];

  // Grouping, reused across flushes (all sized by writes or by groups, see flushTo).
  private int[] slots = new int[0];
  private int[] writeGroup = new int[0];
  private boolean[] dropped = new boolean[0];

  /** Per write: its stamp minus that of its row's previous kept write in the flush (or 0). */
  private long[] stampDeltas = new long[0];

  private int[] groupAddressLengths = new int[0];
  private int[] groupLast = new int[0];
  private long[] groupLastStamps = new long[0];
  private boolean[] groupLastKeepAll = new boolean[0];
  private int[] groupHashes = new int[0];
  private long[] groupSegments = new long[0];
  private int[] groupCounts = new int[0];
  private int[] groupBytes = new int[0];
  private int[] groupCursors = new int[0];
  private int[] groupPages = new int[0];
  private int[] groupKeyStarts = new int[0];
  private int[] groupKeyLengths = new int[0];
  private int[] groupRecorders = new int[0];
  private byte[] groupKeys = new byte[0];
  private int[] chainKeyStarts = new int[0];
  private int[] chainKeyLengths = new int[0];
  private byte[] chainKeys = new byte[0];

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
    // Only the part of the op a page stores is kept (an exact state's updated_at is the stamp).
    boolean elides = ChainRun.elides(stamp, op, 0, op.length);
    int opBytes = ChainRun.storedOpBytes(elides, op.length);
    int needed = rowKey.length + opBytes;
    if (used + needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + needed));
    }
    System.arraycopy(rowKey, 0, bytes, used, rowKey.length);
    System.arraycopy(op, op.length - opBytes, bytes, used + rowKey.length, opBytes);
    recorders[count] = recorder;
    starts[count] = used;
    keyLengths[count] = rowKey.length;
    opLengths[count] = opBytes;
    addressLengths[count] = addressLength;
    stamps[count] = stamp;
    this.keepAll[count] = keepAll;
    elided[count] = elides;
    used += needed;
    count++;
  }

  /** Forgets every held write (the chains they were for are dropped). */
  void clear() {
    count = 0;
    used = 0;
  }

  /**
   * Writes every held write into runs ({@link ChainRun}) and empties the buffer: one run per
   * segment present (so that a prune at a segment boundary drops whole runs), split when it passes
   * {@link #MAX_RUN_BYTES}.
   *
   * <p>Every pass reads the held writes in the order they came, so the buffer is read sequentially
   * once per pass: (1) each write's group (row and segment) from a table the size of the groups,
   * dropping superseded writes; (2) each group's chain key, and the groups sorted by segment and
   * chain key ({@link #sortedGroups}); (3) the pages allocated at their final sizes and each
   * group's row key written in them; (4) each kept write's entry copied to its group's place there.
   * Walking each group's writes through the buffer instead cost a cache miss per write.
   *
   * @param idPartLengths per recorder, the length of {@code lp(state id)}
   * @param idRanks per recorder, the rank of its {@code lp(state id)} in unsigned byte order
   */
  void flushTo(int[] idPartLengths, int[] idRanks, RunSink sink) {
    if (count == 0) {
      return;
    }
    int groups = group();
    chainKeys(groups, idPartLengths);
    int[] order = sortedGroups(groups, idPartLengths, idRanks);
    // The pages: cut where the segment changes (a new run) or a page would pass its size.
    int pages = 0;
    int[] pageRows = new int[4];
    int[] pageBytes = new int[4];
    long[] pageSegments = new long[4];
    for (int i = 0; i < groups; i++) {
      int g = order[i];
      int rowBytes = ChainRun.rowBytes(chainKeyLengths[g], groupBytes[g]);
      if (pages == 0
          || groupSegments[g] != pageSegments[pages - 1]
          || pageBytes[pages - 1] + rowBytes > ChainRuns.PAGE_BYTES) {
        if (pages == pageRows.length) {
          pageRows = Arrays.copyOf(pageRows, pages * 2);
          pageBytes = Arrays.copyOf(pageBytes, pages * 2);
          pageSegments = Arrays.copyOf(pageSegments, pages * 2);
        }
        pageSegments[pages] = groupSegments[g];
        pages++;
      }
      groupPages[g] = pages - 1;
      pageRows[pages - 1]++;
      pageBytes[pages - 1] += rowBytes;
    }
    // Each page allocated at its final size, its rows' keys and counts written in order; each
    // group's cursor then points at where its entries go.
    byte[][] out = new byte[pages][];
    long[] minStamps = new long[pages];
    long[] maxStamps = new long[pages];
    for (int p = 0; p < pages; p++) {
      out[p] = ChainRun.allocate(pageRows[p], pageBytes[p]);
      minStamps[p] = Long.MAX_VALUE;
      maxStamps[p] = Long.MIN_VALUE;
    }
    int page = -1;
    int row = 0;
    int position = 0;
    for (int i = 0; i < groups; i++) {
      int g = order[i];
      if (groupPages[g] != page) {
        page = groupPages[g];
        row = 0;
        position = ChainRun.HEADER_BYTES;
      }
      groupCursors[g] =
          ChainRun.putRow(
              out[page],
              row++,
              position,
              chainKeys,
              chainKeyStarts[g],
              chainKeyLengths[g],
              groupCounts[g]);
      position += ChainRun.rowBytes(chainKeyLengths[g], groupBytes[g]);
    }
    // Every kept write's entry to its place, reading the buffer in write order.
    for (int w = 0; w < count; w++) {
      if (!dropped[w]) {
        int g = writeGroup[w];
        int p = groupPages[g];
        groupCursors[g] = putEntry(w, out[p], groupCursors[g]);
        long stamp = stamps[w];
        if (stamp < minStamps[p]) {
          minStamps[p] = stamp;
        }
        if (stamp > maxStamps[p]) {
          maxStamps[p] = stamp;
        }
      }
    }
    List<byte[]> run = new ArrayList<>();
    for (int p = 0; p < pages; p++) {
      ChainRun.seal(out[p], minStamps[p], maxStamps[p]);
      if (p > 0 && pageSegments[p] != pageSegments[p - 1]) {
        sink.add(run);
        run = new ArrayList<>();
      }
      run.add(out[p]);
    }
    sink.add(run);
    clear();
  }

  /** Where a flush puts its runs (each as its pages, in key order), oldest writes first. */
  interface RunSink {
    void add(List<byte[]> pages);
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
      stampDeltas = new long[starts.length];
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
        stampDeltas[w] = stamps[w]; // a row's first entry: from 0
        if (groups * 2 > slots.length) {
          rehash(groups);
          mask = slots.length - 1;
        }
      } else {
        int previous = groupLast[g];
        stampDeltas[w] = stamps[w] - groupLastStamps[g];
        if (!keepAll[w] && !groupLastKeepAll[g] && groupLastStamps[g] == stamps[w]) {
          dropped[previous] = true; // superseded by the put row's next write at the same stamp
          groupCounts[g]--;
          groupBytes[g] -= entrySize(previous);
          stampDeltas[w] = stampDeltas[previous]; // at the same stamp, after the same entry
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

  /**
   * Each group's chain key {@code lp(id) lp(key) lp(namespace) lp(suffix)}, from its row key {@code
   * lp(key) lp(namespace) lp(id) suffix}: the address's parts moved, no parsing needed since the
   * id's length is known.
   */
  private void chainKeys(int groups, int[] idPartLengths) {
    int needed = 0;
    for (int g = 0; g < groups; g++) {
      needed += groupKeyLengths[g] + 4;
    }
    if (chainKeys.length < needed) {
      chainKeys = new byte[Math.max(needed, chainKeys.length * 2)];
    }
    int at = 0;
    for (int g = 0; g < groups; g++) {
      int from = groupKeyStarts[g];
      int length = groupKeyLengths[g];
      int addressLength = groupAddressLengths[g];
      int idPartLength = idPartLengths[groupRecorders[g]];
      int idStart = addressLength - idPartLength;
      int suffixLength = length - addressLength;
      chainKeyStarts[g] = at;
      chainKeyLengths[g] = length + 4;
      System.arraycopy(groupKeys, from + idStart, chainKeys, at, idPartLength);
      at += idPartLength;
      System.arraycopy(groupKeys, from, chainKeys, at, idStart);
      at += idStart;
      ChainRun.writeInt(chainKeys, at, suffixLength);
      at += 4;
      System.arraycopy(groupKeys, from + addressLength, chainKeys, at, suffixLength);
      at += suffixLength;
    }
  }

  /**
   * The groups in order of segment, then chain key (the order of a run's rows). A primitive sort
   * orders them by a sort key that holds, high bits first, the segment's rank among the flush's
   * segments (8 bits), the state id's rank (6), the encoded key's length (12) and its first 20
   * bits, then the group's number; each run of equal high bits is then sorted by whole segment and
   * chain key. Each field is ordered as the chain keys are (ids by {@code lp(id)}, then {@code
   * lp(key)}: length first), so the result is exactly the chain-key order; when a field does not
   * fit (over 256 segments, 64 ids or keys of 4 KiB), all groups are one run sorted by comparison.
   */
  private int[] sortedGroups(int groups, int[] idPartLengths, int[] idRanks) {
    if (groups > 1 << GROUP_BITS) {
      throw new IllegalStateException(
          groups + " groups in one flush: the buffer holds at most " + MAX_WRITES + " writes");
    }
    long[] distinctSegments = new long[Math.min(groups, 257)];
    int segmentCount = 0;
    boolean fits = true;
    for (int g = 0; g < groups && fits; g++) {
      long segment = groupSegments[g];
      if (segmentCount > 0 && distinctSegments[segmentCount - 1] == segment) {
        continue;
      }
      if (Arrays.binarySearch(distinctSegments, 0, segmentCount, segment) < 0) {
        if (segmentCount == 256) {
          fits = false;
          break;
        }
        int insert = -Arrays.binarySearch(distinctSegments, 0, segmentCount, segment) - 1;
        System.arraycopy(
            distinctSegments, insert, distinctSegments, insert + 1, segmentCount - insert);
        distinctSegments[insert] = segment;
        segmentCount++;
      }
    }
    long[] sortKeys = new long[groups];
    for (int g = 0; g < groups && fits; g++) {
      int idRank = idRanks[groupRecorders[g]];
      // lp(key) follows lp(id).
      int keyLengthAt = chainKeyStarts[g] + idPartLengths[groupRecorders[g]];
      int keyLength = OrderedBytes.readInt(chainKeys, keyLengthAt);
      if (idRank >= 64 || keyLength >= 4096) {
        fits = false;
        break;
      }
      int prefix = 0;
      for (int i = 0; i < 3; i++) {
        prefix = (prefix << 8) | (i < keyLength ? chainKeys[keyLengthAt + 4 + i] & 0xFF : 0);
      }
      long segmentRank = Arrays.binarySearch(distinctSegments, 0, segmentCount, groupSegments[g]);
      sortKeys[g] =
          segmentRank << 56
              | (long) idRank << 50
              | (long) keyLength << 38
              | (long) (prefix >>> 4) << GROUP_BITS
              | g;
    }
    if (!fits) {
      for (int g = 0; g < groups; g++) {
        sortKeys[g] = g;
      }
    }
    // Segment ranks stay below 256 and the top field's 8 bits hold them unsigned: flip the sign.
    for (int g = 0; g < groups; g++) {
      sortKeys[g] ^= Long.MIN_VALUE;
    }
    return PackedOrder.positions(sortKeys, groups, GROUP_BITS, this::compareGroups);
  }

  private int compareGroups(int a, int b) {
    int bySegment = Long.compare(groupSegments[a], groupSegments[b]);
    if (bySegment != 0) {
      return bySegment;
    }
    return Arrays.compareUnsigned(
        chainKeys,
        chainKeyStarts[a],
        chainKeyStarts[a] + chainKeyLengths[a],
        chainKeys,
        chainKeyStarts[b],
        chainKeyStarts[b] + chainKeyLengths[b]);
  }

  /** Bytes of write {@code w}'s entry in a run (see {@link ChainRun#entryBytes}). */
  private int entrySize(int w) {
    return ChainRun.entryBytes(stampDeltas[w], opLengths[w]);
  }

  /** Stores write {@code w}'s entry at {@code target[position]}; returns where it ends. */
  private int putEntry(int w, byte[] target, int position) {
    return ChainRun.putEntry(
        target,
        position,
        stampDeltas[w],
        elided[w],
        bytes,
        starts[w] + keyLengths[w],
        opLengths[w]);
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
    groupPages = Arrays.copyOf(groupPages, size);
    groupKeyStarts = Arrays.copyOf(groupKeyStarts, size);
    groupKeyLengths = Arrays.copyOf(groupKeyLengths, size);
    groupRecorders = Arrays.copyOf(groupRecorders, size);
    chainKeyStarts = Arrays.copyOf(chainKeyStarts, size);
    chainKeyLengths = Arrays.copyOf(chainKeyLengths, size);
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
    elided = Arrays.copyOf(elided, size);
  }
}
