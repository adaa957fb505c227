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
 * {@link #MAX_POOLED} bytes, so any freed buffer fits a later list of its class; the pool holds at
 * most {@link #MAX_POOLED_BYTES}, so a table that shrinks for good gives its memory back.
 */
final class ListBufferPool {
  static final int MIN_BUFFER = 64;
  static final int MAX_POOLED = 1 << 20;
  static final long MAX_POOLED_BYTES = 64L << 20;

  private static final int MIN_CLASS = Integer.numberOfTrailingZeros(MIN_BUFFER);
  private static final int MAX_CLASS = Integer.numberOfTrailingZeros(MAX_POOLED);

  @SuppressWarnings("unchecked")
  private final ArrayDeque<byte[]>[] free = new ArrayDeque[MAX_CLASS + 1];

  private long pooledBytes;

  /**
   * A buffer of at least {@code capacity} bytes: a power of two up to {@link #MAX_POOLED} (a freed
   * one when there is), exactly {@code capacity} above it. Its content is undefined.
   */
  byte[] take(int capacity) {
    if (capacity > MAX_POOLED) {
      return new byte[capacity];
    }
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
    if (length < MIN_BUFFER
        || length > MAX_POOLED
        || Integer.bitCount(length) != 1
        || pooledBytes + length > MAX_POOLED_BYTES) {
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

  long pooledBytes() {
    return pooledBytes;
  }
}
