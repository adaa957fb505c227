package io.arcon.benchmarks.epochs;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * The rows the snapshot benchmark fills a backend with, and their check after a restore. Row {@code
 * i} of {@code 0..rows-1} has an 8-byte key, the big-endian SplitMix64 mix of {@code i} (a
 * bijection, so keys are distinct and arrive in random key order, as hashed user keys do), and a
 * value of {@code valueBytes}: {@code i} big-endian, then pseudo-random bytes seeded by {@code i}
 * (incompressible, so rocksdb's compression cannot shrink the measured size).
 */
record SyntheticRows(long rows, int valueBytes) {

  static final int KEY_BYTES = 8;

  /** The value starts with the row's index, so a scanned row names the row it must be. */
  static final int MIN_VALUE_BYTES = 8;

  SyntheticRows {
    if (rows <= 0) {
      throw new IllegalArgumentException("the number of rows must be positive, got " + rows);
    }
    if (rows > Integer.MAX_VALUE) {
      // The restore check keeps one bit per row in a BitSet.
      throw new IllegalArgumentException(
          "at most " + Integer.MAX_VALUE + " rows; use a larger --valueBytes, got " + rows);
    }
    if (valueBytes < MIN_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "--valueBytes must be at least " + MIN_VALUE_BYTES + ", got " + valueBytes);
    }
  }

  /** As many rows as fit {@code stateBytes} of keys and values. */
  static SyntheticRows ofSize(long stateBytes, int valueBytes) {
    if (valueBytes < MIN_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "--valueBytes must be at least " + MIN_VALUE_BYTES + ", got " + valueBytes);
    }
    long rows = stateBytes / (KEY_BYTES + valueBytes);
    if (rows <= 0) {
      throw new IllegalArgumentException(
          "--stateBytes ("
              + stateBytes
              + ") must hold at least one row of "
              + (KEY_BYTES + valueBytes)
              + " bytes (8-byte key + --valueBytes)");
    }
    return new SyntheticRows(rows, valueBytes);
  }

  /** Bytes of keys and values together. */
  long bytes() {
    return rows * (KEY_BYTES + valueBytes);
  }

  static byte[] key(long i) {
    return bigEndian(mix(i));
  }

  byte[] value(long i) {
    byte[] value = new byte[valueBytes];
    new SplittableRandom(i).nextBytes(value);
    writeBigEndian(i, value);
    return value;
  }

  /** Puts every row. */
  void fill(StateTable table) {
    for (long i = 0; i < rows; i++) {
      table.put(key(i), value(i));
    }
  }

  /**
   * Puts again (same bytes) every row whose index is {@code round} modulo {@code stride}: fresh
   * writes between two snapshots, as a running pipeline makes them, without changing the content.
   * Returns the rows written.
   */
  long rewrite(StateTable table, int round, int stride) {
    long written = 0;
    for (long i = Math.floorMod(round, stride); i < rows; i += stride) {
      table.put(key(i), value(i));
      written++;
    }
    return written;
  }

  /**
   * Scans the whole table and fails unless it holds exactly these rows: every scanned row's key and
   * value are those of the index its value names, no index twice, and {@code rows} rows in all.
   */
  void verify(StateTable table) {
    BitSet seen = new BitSet((int) rows);
    long count = 0;
    try (CloseableIterator<StateEntry> it = table.iterator()) {
      while (it.hasNext()) {
        StateEntry entry = it.next();
        byte[] value = entry.value();
        long i = value.length >= MIN_VALUE_BYTES ? readBigEndian(value) : -1;
        if (i < 0 || i >= rows) {
          throw new IllegalStateException(
              "restored table " + table.name() + " has a row that is not one of ours: index " + i);
        }
        if (seen.get((int) i)) {
          throw new IllegalStateException("restored table holds row " + i + " twice");
        }
        seen.set((int) i);
        if (!Arrays.equals(entry.key(), key(i)) || !Arrays.equals(value, value(i))) {
          throw new IllegalStateException("restored row " + i + " differs from the written one");
        }
        count++;
      }
    }
    if (count != rows) {
      throw new IllegalStateException(
          "restored table " + table.name() + " has " + count + " rows, expected " + rows);
    }
  }

  /** SplitMix64's finalizer: a bijection on longs that spreads consecutive indices. */
  static long mix(long i) {
    long z = i + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static byte[] bigEndian(long v) {
    return ByteBuffer.allocate(KEY_BYTES).putLong(0, v).array();
  }

  private static void writeBigEndian(long v, byte[] into) {
    ByteBuffer.wrap(into).putLong(0, v);
  }

  private static long readBigEndian(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getLong(0);
  }
}
