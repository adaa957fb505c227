package io.arcon.state;

import java.util.Arrays;
import java.util.List;

/**
 * One named table of a {@link StateBackend}: byte-array keys ordered by unsigned lexicographic
 * comparison, byte-array values.
 *
 * <p>A key holds either a plain value (written with {@link #put}) or a list of elements (written
 * with {@link #append}); callers do not mix the two on one key. {@link #delete} removes either.
 * Arrays passed in may be retained by the engine: callers must not mutate them afterwards, and must
 * not mutate arrays they get back.
 */
public interface StateTable {

  String name();

  /** The value stored under {@code key}, or {@code null}. */
  byte[] get(byte[] key);

  /**
   * The value stored under {@code key} decoded by {@code decoder}, or {@code null} when there is
   * none. Engines that hold values in the JVM override it to decode them where they lie, without
   * the copy {@link #get} returns; the decoder must not keep the array.
   */
  default <T> T get(byte[] key, ValueDecoder<T> decoder) {
    byte[] value = get(key);
    return value == null ? null : decoder.decode(value, 0, value.length);
  }

  /** Reads a value from {@code bytes[offset, offset + length)}, which it must not keep. */
  @FunctionalInterface
  interface ValueDecoder<T> {
    T decode(byte[] bytes, int offset, int length);
  }

  void put(byte[] key, byte[] value);

  /**
   * Stores {@code value[0, length)} under {@code key}, as {@link #put} of a copy would: the caller
   * reuses {@code value} for its next write, so the engine copies what it keeps. Engines that hold
   * values in the JVM override it to overwrite a stored value in place, with no copy at all.
   */
  default void putCopyOf(byte[] key, byte[] value, int length) {
    put(key, Arrays.copyOf(value, length));
  }

  void delete(byte[] key);

  /** Removes every key in {@code [fromInclusive, toExclusive)}. */
  void deleteRange(byte[] fromInclusive, byte[] toExclusive);

  /** Removes every key that starts with {@code prefix}. */
  default void deletePrefix(byte[] prefix) {
    byte[] end = KeyBytes.prefixEnd(prefix);
    if (end == null) {
      try (CloseableIterator<StateEntry> it = scan(prefix, null)) {
        while (it.hasNext()) {
          delete(it.next().key());
        }
      }
    } else {
      deleteRange(prefix, end);
    }
  }

  /**
   * Appends one element to the list under {@code key}; cheap (no read of the existing list). This
   * is what bag-like state uses.
   */
  void append(byte[] key, byte[] element);

  /**
   * Appends {@code elements} to the list under {@code key}, in order, as that many {@link #append}
   * calls would; engines whose append is one write each (a merge, a rewrite of the list) make it
   * one write.
   */
  default void appendAll(byte[] key, List<byte[]> elements) {
    for (byte[] element : elements) {
      append(key, element);
    }
  }

  /**
   * A hint that this table is read in key order (scans) about as often as keys are added to it,
   * e.g. a table with a key per row of some other state, read whole now and then: an engine that
   * orders its keys lazily (heap: at the next scan, sorting every key added since) then keeps the
   * order current with each added or removed key instead, so a scan never waits for a sort. Engines
   * whose tables are always ordered (rocksdb, lmdb) ignore it.
   */
  default void keepKeyOrder() {}

  /** The elements appended under {@code key}, in append order; empty when there are none. */
  List<byte[]> getList(byte[] key);

  /**
   * Entries with {@code fromInclusive <= key < toExclusive} in ascending key order; a {@code null}
   * bound is open. For list keys {@link StateEntry#value()} is the framed list (decode it with
   * {@link StateEntry#elements()}). The iterator must be closed.
   *
   * <p>The caller may put, append and delete (in this table or others) while a scan is open; the
   * scan keeps going in key order. Whether it shows entries written after it was opened differs by
   * engine (rocksdb reads the table as of the scan's start, except, with its row cache off, for
   * values overwritten in place since; heap and lmdb may show any later write ahead of the scan
   * position), so callers must not rely on either.
   */
  CloseableIterator<StateEntry> scan(byte[] fromInclusive, byte[] toExclusive);

  /**
   * The keys of {@link #scan}, without their values: cheaper where an engine can skip reading them
   * (heap). Same order and the same rules for writes while it is open. The iterator must be closed.
   */
  default CloseableIterator<byte[]> scanKeys(byte[] fromInclusive, byte[] toExclusive) {
    CloseableIterator<StateEntry> entries = scan(fromInclusive, toExclusive);
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public byte[] next() {
        return entries.next().key();
      }

      @Override
      public void close() {
        entries.close();
      }
    };
  }

  /** Entries whose key starts with {@code prefix}, in ascending key order. */
  default CloseableIterator<StateEntry> prefixScan(byte[] prefix) {
    return scan(prefix, KeyBytes.prefixEnd(prefix));
  }

  /** Every entry in ascending key order. */
  default CloseableIterator<StateEntry> iterator() {
    return scan(null, null);
  }

  /** Approximate bytes of keys and values in this table. */
  long approximateSizeBytes();
}
