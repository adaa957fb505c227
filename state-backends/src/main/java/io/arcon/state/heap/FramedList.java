package io.arcon.state.heap;

import io.arcon.state.ListFraming;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A list value on the heap: {@link ListFraming} frames in a buffer that grows geometrically, so an
 * append is amortized O(1) instead of copying the whole list each time. Buffers come from, and on
 * growth and {@link #release} go back to, the table's {@link ListBufferPool}.
 */
final class FramedList {
  private byte[] buffer;
  private int length;

  private FramedList(byte[] buffer, int length) {
    this.buffer = buffer;
    this.length = length;
  }

  static FramedList of(byte[] firstElement, ListBufferPool pool) {
    FramedList list = new FramedList(pool.take(ListFraming.framedSize(firstElement.length)), 0);
    list.append(firstElement, pool);
    return list;
  }

  /**
   * Adopts already framed bytes (a list restored from a snapshot, or a plain value appended to).
   */
  static FramedList ofFramed(byte[] framed) {
    return new FramedList(framed, framed.length);
  }

  /** A list of {@code elements}. */
  static FramedList ofAll(List<byte[]> elements, ListBufferPool pool) {
    FramedList list = new FramedList(pool.take(framedSize(elements)), 0);
    list.appendAll(elements, pool);
    return list;
  }

  /** Appends one element and returns the number of bytes the list grew by. */
  int append(byte[] element, ListBufferPool pool) {
    int needed = ListFraming.framedSize(element.length);
    ensureRoom(needed, pool);
    length = ListFraming.frameInto(buffer, length, element);
    return needed;
  }

  /**
   * Appends {@code elements} after making room for all of them at once (a batch grows the buffer
   * once, not once per doubling), and returns the number of bytes the list grew by.
   */
  int appendAll(List<byte[]> elements, ListBufferPool pool) {
    int needed = framedSize(elements);
    ensureRoom(needed, pool);
    for (byte[] element : elements) {
      length = ListFraming.frameInto(buffer, length, element);
    }
    return needed;
  }

  private void ensureRoom(int needed, ListBufferPool pool) {
    if (length + needed > buffer.length) {
      long target = Math.max((long) length + needed, (long) buffer.length * 2);
      byte[] grown = pool.take((int) Math.min(target, Integer.MAX_VALUE - 8));
      System.arraycopy(buffer, 0, grown, 0, length);
      pool.give(buffer);
      buffer = grown;
    }
  }

  /**
   * Gives the buffer back to {@code pool}: the list was removed from its table and must not be used
   * again (a stale reader sees an empty list, never the bytes of the list that reuses the buffer).
   */
  void release(ListBufferPool pool) {
    pool.give(buffer);
    buffer = RELEASED;
    length = 0;
  }

  private static final byte[] RELEASED = new byte[0];

  private static int framedSize(List<byte[]> elements) {
    long size = 0;
    for (byte[] element : elements) {
      size += ListFraming.framedSize(Objects.requireNonNull(element, "element").length);
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("A list append of " + size + " bytes is too large");
    }
    return (int) size;
  }

  int length() {
    return length;
  }

  /** A copy of the framed bytes, safe to hand out while the list keeps growing. */
  byte[] framedCopy() {
    return Arrays.copyOf(buffer, length);
  }

  /** Writes the framed bytes without copying them first. */
  void writeFramedTo(OutputStream out) throws IOException {
    out.write(buffer, 0, length);
  }

  List<byte[]> elements() {
    return ListFraming.decode(buffer, length);
  }
}
