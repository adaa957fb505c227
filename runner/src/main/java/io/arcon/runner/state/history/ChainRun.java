package io.arcon.runner.state.history;

import io.arcon.runner.state.OrderedBytes;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * A sorted block of chain rows, the format of one <b>page</b> of a run ({@link ChainRuns}): the
 * entries of some rows, sorted by row, in one immutable value of table {@value
 * ChainLayout#RUNS_TABLE} (see {@link ChainLayout} for what a row and an entry are). A flush of the
 * write buffer writes its rows as pages instead of appending to a list per row: its cost does not
 * depend on how many rows it touches, and a prune drops whole runs.
 *
 * <p>Layout (big-endian ints):
 *
 * <pre>
 * int magic, long minStamp, long maxStamp, int rowCount, int indexOffset
 * rowCount x { int keyLength, key, int entryCount, entryCount x entry }
 * rowCount x int rowOffset          (at indexOffset)
 * </pre>
 *
 * Rows are in unsigned order of their keys ({@code lp(id) lp(key) lp(namespace) lp(suffix)}, a
 * chain key without its segment), each key once; a row's entries in write order. {@code minStamp}
 * and {@code maxStamp} bound the stamps of all its entries.
 *
 * <p>An entry {@code ts(stamp) op} is stored compactly, as {@code varint(opBytes << 1 | elided)},
 * {@code zigzag varint(stamp - previous stamp of the row)} (the first from 0), then the op's bytes,
 * without its first 8 when {@code elided}: those were the stamp as a raw long, the {@code
 * updated_at} that starts the op of every write of an exact state. A counter's entry thus takes
 * about 5 bytes instead of 24, and the history's memory, the collector's copying of it (on heap),
 * its writes (rocksdb, lmdb) and a prune's reads shrink as much. {@link Cursor} hands entries out
 * restored, so readers see {@code ts(stamp) op} as it was written.
 */
final class ChainRun {
  private static final int MAGIC = 0x41524E32; // "ARN2": entries stored compactly
  private static final int MIN_STAMP = 4;
  private static final int MAX_STAMP = 12;
  private static final int ROW_COUNT = 20;
  private static final int INDEX_OFFSET = 24;
  static final int HEADER_BYTES = 28;

  /** Bytes of an op's leading {@code updated_at} that a page leaves out when it is the stamp. */
  private static final int ELIDED_BYTES = 8;

  private ChainRun() {}

  static long minStamp(byte[] run) {
    requireRun(run);
    return OrderedBytes.readRawLong(run, MIN_STAMP);
  }

  static long maxStamp(byte[] run) {
    requireRun(run);
    return OrderedBytes.readRawLong(run, MAX_STAMP);
  }

  /** A copy of the key of the last row of {@code run} (which has rows). */
  static byte[] lastRowKey(byte[] run) {
    Cursor cursor = new Cursor(run);
    cursor.moveTo(cursor.rowCount - 1);
    return cursor.key();
  }

  static int rowCount(byte[] run) {
    requireRun(run);
    return OrderedBytes.readInt(run, ROW_COUNT);
  }

  private static void requireRun(byte[] run) {
    if (run == null
        || run.length < HEADER_BYTES
        || OrderedBytes.readInt(run, 0) != MAGIC
        || OrderedBytes.readInt(run, INDEX_OFFSET) > run.length) {
      throw new IllegalStateException(
          "Table "
              + ChainLayout.RUNS_TABLE
              + " holds a value that is not a run of chain entries ("
              + (run == null ? "null" : run.length + " bytes")
              + "): it was written by another version of ArconRunner or something else; dispose of"
              + " the backend's state to start over");
    }
  }

  /**
   * Bytes of a row whose key is {@code keyLength} and whose stored entries take {@code entryBytes}
   * (each {@link #entryBytes}).
   */
  static int rowBytes(int keyLength, int entryBytes) {
    return 4 + keyLength + 4 + entryBytes;
  }

  /**
   * A run of {@code rows} rows taking {@code rowBytes} (sum of {@link #rowBytes}), to be filled in
   * place: {@link #putRow} each row in key order, its entries at the position that returns, then
   * {@link #seal}.
   */
  static byte[] allocate(int rows, int rowBytes) {
    byte[] run = new byte[HEADER_BYTES + rowBytes + 4 * rows];
    writeInt(run, ROW_COUNT, rows);
    return run;
  }

  /**
   * Writes row number {@code row} of an {@link #allocate}d run at {@code position}: its key and
   * entry count, and its place in the index; returns where its entries go (each as {@link
   * #putEntry} writes it).
   */
  static int putRow(
      byte[] run, int row, int position, byte[] key, int keyOffset, int keyLength, int entries) {
    int rows = OrderedBytes.readInt(run, ROW_COUNT); // the index is the last 4 * rows bytes
    writeInt(run, position, keyLength);
    System.arraycopy(key, keyOffset, run, position + 4, keyLength);
    writeInt(run, position + 4 + keyLength, entries);
    writeInt(run, run.length - 4 * (rows - row), position);
    return position + 4 + keyLength + 4;
  }

  /** Completes the header of an {@link #allocate}d run whose rows are all put. */
  static void seal(byte[] run, long minStamp, long maxStamp) {
    int rows = OrderedBytes.readInt(run, ROW_COUNT);
    writeInt(run, 0, MAGIC);
    writeLong(run, MIN_STAMP, minStamp);
    writeLong(run, MAX_STAMP, maxStamp);
    writeInt(run, INDEX_OFFSET, run.length - 4 * rows);
  }

  /**
   * Whether an entry's op starts with its stamp as a raw long (an exact state's {@code
   * updated_at}), which a page then does not store.
   */
  static boolean elides(long stamp, byte[] op, int opOffset, int opLength) {
    return opLength >= ELIDED_BYTES && OrderedBytes.readRawLong(op, opOffset) == stamp;
  }

  /** Bytes of the op that a page stores: all but its first 8 when {@link #elides} says so. */
  static int storedOpBytes(boolean elided, int opLength) {
    return elided ? opLength - ELIDED_BYTES : opLength;
  }

  /**
   * Bytes of a stored entry that keeps {@code storedOpBytes} of its op and whose stamp is {@code
   * stampDelta} after the row's previous one.
   */
  static int entryBytes(long stampDelta, int storedOpBytes) {
    return varIntBytes((long) storedOpBytes << 1) + varIntBytes(zigzag(stampDelta)) + storedOpBytes;
  }

  /**
   * Stores an entry at {@code target[position]} whose stamp is {@code stampDelta} after the row's
   * previous one and whose op's stored part ({@link #storedOpBytes}) is {@code stored[offset,
   * +length)}; returns where it ends.
   */
  static int putEntry(
      byte[] target,
      int position,
      long stampDelta,
      boolean elided,
      byte[] stored,
      int offset,
      int length) {
    position = putVarInt(target, position, (long) length << 1 | (elided ? 1 : 0));
    position = putVarInt(target, position, zigzag(stampDelta));
    System.arraycopy(stored, offset, target, position, length);
    return position + length;
  }

  private static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  private static int varIntBytes(long value) {
    return value == 0 ? 1 : (70 - Long.numberOfLeadingZeros(value)) / 7;
  }

  private static int putVarInt(byte[] target, int position, long value) {
    while ((value & ~0x7FL) != 0) {
      target[position++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    target[position++] = (byte) value;
    return position;
  }

  /**
   * The rows of {@code run} whose encoded key {@code keep} accepts, as a run (null when none is);
   * the run itself when all are. For restoring a run at another parallelism.
   */
  static byte[] filterByKey(byte[] run, Predicate<byte[]> keep) {
    Cursor cursor = new Cursor(run);
    Writer out = new Writer();
    int kept = 0;
    for (cursor.seek(null); cursor.valid(); cursor.next()) {
      byte[] key = cursor.key();
      int keyStart = OrderedBytes.skipLengthPrefixed(key, 0);
      if (keep.test(OrderedBytes.readLengthPrefixed(key, keyStart))) {
        out.startRow(key, 0, key.length);
        cursor.copyEntriesTo(out);
        out.endRow();
        kept++;
      }
    }
    if (kept == cursor.rowCount) {
      return run;
    }
    return kept == 0 ? null : out.finish();
  }

  /** Takes one entry {@code ts(stamp) op} at {@code bytes[offset, offset + length)}. */
  @FunctionalInterface
  interface EntryConsumer {
    void accept(byte[] bytes, int offset, int length);
  }

  /** Builds one run: rows in key order, each row's entries in write order. */
  static final class Writer {
    private byte[] bytes = new byte[4096];
    private int used = HEADER_BYTES;
    private int[] rowOffsets = new int[64];
    private int rows;
    private int countPosition = -1;
    private int rowEntries;
    private long previousStamp;
    private long minStamp = Long.MAX_VALUE;
    private long maxStamp = Long.MIN_VALUE;

    boolean isEmpty() {
      return rows == 0;
    }

    /** Bytes written so far. */
    int size() {
      return used + 4 * rows;
    }

    /** Starts the row {@code key[offset, offset + length)}, after every row written so far. */
    void startRow(byte[] key, int offset, int length) {
      if (rows == rowOffsets.length) {
        rowOffsets = Arrays.copyOf(rowOffsets, rows * 2);
      }
      rowOffsets[rows++] = used;
      ensure(8 + length);
      putInt(length);
      System.arraycopy(key, offset, bytes, used, length);
      used += length;
      countPosition = used;
      putInt(0);
      rowEntries = 0;
      previousStamp = 0;
    }

    /** One entry of the current row: {@code ts(stamp) op} at {@code entry[offset, +length)}. */
    void entry(byte[] entry, int offset, int length) {
      long stamp = ChainLayout.entryStamp(entry, offset, length);
      int opOffset = offset + ChainLayout.ENTRY_HEADER_BYTES;
      int opLength = length - ChainLayout.ENTRY_HEADER_BYTES;
      boolean elided = elides(stamp, entry, opOffset, opLength);
      int stored = storedOpBytes(elided, opLength);
      long delta = stamp - previousStamp;
      ensure(entryBytes(delta, stored));
      used = putEntry(bytes, used, delta, elided, entry, opOffset + opLength - stored, stored);
      previousStamp = stamp;
      rowEntries++;
      if (stamp < minStamp) {
        minStamp = stamp;
      }
      if (stamp > maxStamp) {
        maxStamp = stamp;
      }
    }

    /** Ends the current row; a row without entries is taken out again. */
    void endRow() {
      if (rowEntries == 0) {
        used = rowOffsets[--rows];
      } else {
        writeInt(bytes, countPosition, rowEntries);
      }
      countPosition = -1;
    }

    /** The run; the writer is empty afterwards. */
    byte[] finish() {
      if (countPosition >= 0) {
        throw new IllegalStateException("a row was started and not ended");
      }
      ensure(4 * rows);
      int indexOffset = used;
      for (int i = 0; i < rows; i++) {
        putInt(rowOffsets[i]);
      }
      writeInt(bytes, 0, MAGIC);
      writeLong(bytes, MIN_STAMP, minStamp);
      writeLong(bytes, MAX_STAMP, maxStamp);
      writeInt(bytes, ROW_COUNT, rows);
      writeInt(bytes, INDEX_OFFSET, indexOffset);
      byte[] run = Arrays.copyOf(bytes, used);
      used = HEADER_BYTES;
      rows = 0;
      minStamp = Long.MAX_VALUE;
      maxStamp = Long.MIN_VALUE;
      return run;
    }

    private void ensure(int more) {
      if (used + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, used + more));
      }
    }

    private void putInt(int value) {
      writeInt(bytes, used, value);
      used += 4;
    }
  }

  /** Reads one run row by row, in key order. */
  static final class Cursor implements RowCursor {
    private final byte[] run;
    private final int rowCount;
    private final int indexOffset;
    private int row;
    private int keyOffset;
    private int keyLength;

    // The entry being read (see nextEntry).
    private int entryPosition;
    private int entriesLeft;
    private long entryStamp;
    private byte[] entry = new byte[64];
    private int entryLength;

    Cursor(byte[] run) {
      requireRun(run);
      this.run = run;
      this.rowCount = OrderedBytes.readInt(run, ROW_COUNT);
      this.indexOffset = OrderedBytes.readInt(run, INDEX_OFFSET);
      this.row = rowCount;
      if (rowCount < 0 || indexOffset < HEADER_BYTES || indexOffset + 4L * rowCount != run.length) {
        throw damaged("its index does not end the page");
      }
    }

    /** Moves to the first row whose key is &ge; {@code from} (null: the first row). */
    void seek(byte[] from) {
      int low = 0;
      if (from != null) {
        int high = rowCount;
        while (low < high) {
          int mid = (low + high) >>> 1;
          int at = rowOffset(mid);
          int length = OrderedBytes.readInt(run, at);
          if (Arrays.compareUnsigned(run, at + 4, at + 4 + length, from, 0, from.length) < 0) {
            low = mid + 1;
          } else {
            high = mid;
          }
        }
      }
      moveTo(low);
    }

    @Override
    public boolean valid() {
      return row < rowCount;
    }

    @Override
    public void next() {
      moveTo(row + 1);
    }

    private void moveTo(int target) {
      row = target;
      if (row < rowCount) {
        int at = rowOffset(row);
        if (at < HEADER_BYTES || at > indexOffset - 8) {
          throw damaged("row " + row + " starts outside the rows");
        }
        keyLength = OrderedBytes.readInt(run, at);
        keyOffset = at + 4;
        if (keyLength < 0 || keyLength > indexOffset - keyOffset - 4) {
          throw damaged("the key of row " + row + " runs past the rows");
        }
      }
    }

    /**
     * A page whose bytes do not hold together: it has the right magic, so it was written as a page,
     * and was damaged since.
     */
    private IllegalStateException damaged(String what) {
      return new IllegalStateException(
          "Table "
              + ChainLayout.RUNS_TABLE
              + " holds a damaged page of "
              + run.length
              + " bytes ("
              + what
              + "): the state's files were changed or damaged; restore an earlier checkpoint or"
              + " dispose of the backend's state to start over");
    }

    private int rowOffset(int index) {
      return OrderedBytes.readInt(run, indexOffset + 4 * index);
    }

    @Override
    public byte[] keyBytes() {
      return run;
    }

    @Override
    public int keyOffset() {
      return keyOffset;
    }

    @Override
    public int keyLength() {
      return keyLength;
    }

    /** A copy of the current row's key. */
    byte[] key() {
      return Arrays.copyOfRange(run, keyOffset, keyOffset + keyLength);
    }

    int entryCount() {
      return OrderedBytes.readInt(run, keyOffset + keyLength);
    }

    /** Starts reading the current row's entries: then {@link #nextEntry} until it is false. */
    void startEntries() {
      entryPosition = keyOffset + keyLength + 4;
      entriesLeft = entryCount();
      entryStamp = 0;
    }

    /**
     * Moves to the current row's next entry, restored as {@code ts(stamp) op} in {@link
     * #entryBytes}{@code [0, }{@link #entryLength}{@code )} until the next call; false after the
     * last.
     */
    boolean nextEntry() {
      if (entriesLeft == 0) {
        return false;
      }
      entriesLeft--;
      long header = readVarInt();
      entryStamp += unzigzag(readVarInt());
      if (header >>> 1 > indexOffset - entryPosition) {
        throw damaged("an entry of row " + row + " runs past the rows");
      }
      int stored = (int) (header >>> 1);
      boolean elided = (header & 1) != 0;
      int opLength = elided ? ELIDED_BYTES + stored : stored;
      entryLength = ChainLayout.ENTRY_HEADER_BYTES + opLength;
      if (entry.length < entryLength) {
        entry = new byte[Math.max(entryLength, 2 * entry.length)];
      }
      ChainLayout.writeStamp(entry, 0, entryStamp);
      int at = ChainLayout.ENTRY_HEADER_BYTES;
      if (elided) {
        writeLong(entry, at, entryStamp);
        at += ELIDED_BYTES;
      }
      System.arraycopy(run, entryPosition, entry, at, stored);
      entryPosition += stored;
      return true;
    }

    long entryStamp() {
      return entryStamp;
    }

    /** The current entry ({@code ts(stamp) op}), valid until the next {@link #nextEntry}. */
    byte[] entryBytes() {
      return entry;
    }

    int entryLength() {
      return entryLength;
    }

    /** Hands each entry of the current row, in order, to {@code consumer}. */
    void forEachEntry(EntryConsumer consumer) {
      for (startEntries(); nextEntry(); ) {
        consumer.accept(entry, 0, entryLength);
      }
    }

    private long readVarInt() {
      long value = 0;
      for (int shift = 0; ; shift += 7) {
        if (entryPosition >= indexOffset || shift > 63) {
          throw damaged("an entry of row " + row + " runs past the rows");
        }
        byte b = run[entryPosition++];
        value |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return value;
        }
      }
    }

    private static long unzigzag(long value) {
      return (value >>> 1) ^ -(value & 1);
    }

    /** Appends the current row's entries to the row {@code out} writes. */
    void copyEntriesTo(Writer out) {
      forEachEntry(out::entry);
    }
  }

  static void writeInt(byte[] target, int position, int value) {
    target[position] = (byte) (value >>> 24);
    target[position + 1] = (byte) (value >>> 16);
    target[position + 2] = (byte) (value >>> 8);
    target[position + 3] = (byte) value;
  }

  private static void writeLong(byte[] target, int position, long value) {
    writeInt(target, position, (int) (value >>> 32));
    writeInt(target, position + 4, (int) value);
  }
}
