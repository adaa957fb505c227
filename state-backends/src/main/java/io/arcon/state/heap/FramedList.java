package io.arcon.state.heap;

import io.arcon.state.ListFraming;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * A list value on the heap: {@link ListFraming} frames in a buffer that grows geometrically, so an
 * append is amortized O(1) instead of copying the whole list each time.
 */
final class FramedList {
  private byte[] buffer;
  private int length;

  /** Where the last frame starts; -1 when not known yet (a list adopted from framed bytes). */
  private int lastFrame;

  private FramedList(byte[] buffer, int length) {
    this.buffer = buffer;
    this.length = length;
    this.lastFrame = length == 0 ? 0 : -1;
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

  /** Appends one element and returns the number of bytes the list grew by. */
  int append(byte[] element) {
    int needed = ListFraming.framedSize(element.length);
    if (length + needed > buffer.length) {
      long target = Math.max((long) length + needed, (long) buffer.length * 2);
      buffer = Arrays.copyOf(buffer, (int) Math.min(target, Integer.MAX_VALUE - 8));
    }
    lastFrame = length;
    length = ListFraming.frameInto(buffer, length, element);
    return needed;
  }

  /**
   * Replaces the last element with {@code element} when both have the same first {@code
   * prefixLength} bytes, else appends it; returns the number of bytes the list grew by (negative
   * when it shrank).
   */
  int appendOrReplaceLast(byte[] element, int prefixLength) {
    if (length > 0) {
      int last = lastFrameStart();
      int elementLength = ListFraming.frameLength(buffer, last);
      int elementStart = last + ListFraming.varIntSize(elementLength);
      if (elementLength >= prefixLength
          && element.length >= prefixLength
          && Arrays.equals(
              buffer, elementStart, elementStart + prefixLength, element, 0, prefixLength)) {
        int before = length;
        length = last;
        append(element);
        return length - before;
      }
    }
    return append(element);
  }

  private int lastFrameStart() {
    if (lastFrame < 0) {
      int pos = 0;
      int start = 0;
      while (pos < length) {
        start = pos;
        int elementLength = ListFraming.frameLength(buffer, pos);
        pos += ListFraming.varIntSize(elementLength) + elementLength;
      }
      lastFrame = start;
    }
    return lastFrame;
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
