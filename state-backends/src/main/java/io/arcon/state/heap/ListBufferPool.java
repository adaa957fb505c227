package io.arcon.state.heap;

import java.util.ArrayDeque;

/**
 * The buffers of a heap table's removed lists, kept for its next lists (one pool per table content,
 * single-threaded like the table).
 *
 * <p>Why: a table whose lists come and go at a steady rate, as the version chains of an exported
 * state do (a segment list per row lives for the retained history, then is pruned), otherwise hands
 * the collector a stream of medium-lived arrays: each is copied from the young generation to a
 * survivor space and into the old one before it dies, about the whole retained history per young
 * collection. A buffer taken from here is usually already in the old generation, and a byte array
 * written there costs the collector nothing. Buffers are powers of two from {@link #MIN_BUFFER} to
 * {@link #MAX_POOLED} bytes, so any freed buffer fits a later list of its class. The pool holds at
 * most a quarter of the bytes its table's lists use (at least {@link #MIN_LIMIT_BYTES}, at most
 * {@link #MAX_POOLED_BYTES}): enough for the segments one prune frees (an eighth of the history),
 * and a table that shrinks for good (bags cleared when their windows close) gives its memory back
 * instead of keeping it for lists that do not come.
 */
final class ListBufferPool {
  static final int MIN_BUFFER = 64;
  static final int MAX_POOLED = 1 << 20;
  static final long MAX_POOLED_BYTES = 64L << 20;
  static final long MIN_LIMIT_BYTES = 1L << 20;

  private static final int MIN_CLASS = Integer.numberOfTrailingZeros(MIN_BUFFER);
  private static final int MAX_CLASS = Integer.numberOfTrailingZeros(MAX_POOLED);

  @SuppressWarnings("unchecked")
  private final ArrayDeque<byte[]>[] free = new ArrayDeque[MAX_CLASS + 1];

  private long pooledBytes;

  /** Bytes of the buffers taken and not given back: what the table's lists use. */
  private long inUseBytes;

  /**
   * A buffer of at least {@code capacity} bytes: a power of two up to {@link #MAX_POOLED} (a freed
   * one when there is), exactly {@code capacity} above it. Its content is undefined.
   */
  byte[] take(int capacity) {
    byte[] buffer = capacity > MAX_POOLED ? new byte[capacity] : takePooledSize(capacity);
    inUseBytes += buffer.length;
    return buffer;
  }

  private byte[] takePooledSize(int capacity) {
    int sizeClass = Math.max(MIN_CLASS, 32 - Integer.numberOfLeadingZeros(capacity - 1));
    ArrayDeque<byte[]> buffers = free[sizeClass];
    if (buffers != null && !buffers.isEmpty()) {
      byte[] buffer = buffers.pop();
      pooledBytes -= buffer.length;
      return buffer;
    }
    return new byte[1 << sizeClass];
  }

  /** Keeps {@code buffer}, which nothing may use any more, for a later {@link #take}. */
  void give(byte[] buffer) {
    int length = buffer.length;
    // A restored or adopted list's buffer was not taken here: never below zero.
    inUseBytes = Math.max(0, inUseBytes - length);
    if (length < MIN_BUFFER
        || length > MAX_POOLED
        || Integer.bitCount(length) != 1
        || pooledBytes + length > limitBytes()) {
      return; // not a pooled size (a restored or adopted list), or the pool is full
    }
    int sizeClass = Integer.numberOfTrailingZeros(length);
    ArrayDeque<byte[]> buffers = free[sizeClass];
    if (buffers == null) {
      buffers = free[sizeClass] = new ArrayDeque<>();
    }
    buffers.push(buffer);
    pooledBytes += length;
  }

  /** The most the pool keeps now: a quarter of what is in use, within its bounds. */
  long limitBytes() {
    return Math.min(MAX_POOLED_BYTES, Math.max(MIN_LIMIT_BYTES, inUseBytes / 4));
  }

  long pooledBytes() {
    return pooledBytes;
  }
}
