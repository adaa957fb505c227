package io.arcon.state.heap;

import io.arcon.state.ListFraming;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A list value on the heap: {@link ListFraming} frames in a buffer that grows geometrically, so an
 * append is amortized O(1) instead of copying the whole list each time.
 */
final class FramedList {
  private byte[] buffer;
  private int length;

  private FramedList(byte[] buffer, int length) {
    this.buffer = buffer;
    this.length = length;
  }

  static FramedList of(byte[] firstElement) {
    FramedList list = new FramedList(new byte[ListFraming.framedSize(firstElement.length)], 0);
    list.append(firstElement);
    return list;
  }

  /**
   * Adopts already framed bytes (a list restored from a snapshot, or a plain value appended to).
   */
  static FramedList ofFramed(byte[] framed) {
    return new FramedList(framed, framed.length);
  }

  /** A list of {@code elements}, in a buffer of exactly their size. */
  static FramedList ofAll(List<byte[]> elements) {
    FramedList list = new FramedList(new byte[framedSize(elements)], 0);
    list.appendAll(elements);
    return list;
  }

  /** Appends one element and returns the number of bytes the list grew by. */
  int append(byte[] element) {
    int needed = ListFraming.framedSize(element.length);
    ensureRoom(needed);
    length = ListFraming.frameInto(buffer, length, element);
    return needed;
  }

  /**
   * Appends {@code elements} after making room for all of them at once (a batch grows the buffer
   * once, not once per doubling), and returns the number of bytes the list grew by.
   */
  int appendAll(List<byte[]> elements) {
    int needed = framedSize(elements);
    ensureRoom(needed);
    for (byte[] element : elements) {
      length = ListFraming.frameInto(buffer, length, element);
    }
    return needed;
  }

  private void ensureRoom(int needed) {
    if (length + needed > buffer.length) {
      long target = Math.max((long) length + needed, (long) buffer.length * 2);
      buffer = Arrays.copyOf(buffer, (int) Math.min(target, Integer.MAX_VALUE - 8));
    }
  }

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
