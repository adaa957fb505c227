package io.arcon.state;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The one on-disk format of lists written with {@link StateTable#append}: each element is an
 * unsigned varint length followed by its bytes, elements concatenated in append order. Engines use
 * it so that an append is a pure concatenation (RocksDB merge with an empty delimiter, a buffer
 * extension on heap) and every engine's snapshot reads the same.
 */
public final class ListFraming {
  private ListFraming() {}

  /** One framed element. */
  public static byte[] frame(byte[] element) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(element.length + 5);
    writeVarInt(out, element.length);
    out.writeBytes(element);
    return out.toByteArray();
  }

  /** The elements framed and concatenated: what appending them one by one would add. */
  public static byte[] frameAll(List<byte[]> elements) {
    int size = 0;
    for (byte[] element : elements) {
      size += framedSize(element.length);
    }
    byte[] out = new byte[size];
    int position = 0;
    for (byte[] element : elements) {
      position = frameInto(out, position, element);
    }
    return out;
  }

  /** Appends the framed element to {@code out}. */
  public static void frameInto(ByteArrayOutputStream out, byte[] element) {
    writeVarInt(out, element.length);
    out.writeBytes(element);
  }

  /** Bytes one element of {@code elementLength} bytes takes once framed. */
  public static int framedSize(int elementLength) {
    return varIntSize(elementLength) + elementLength;
  }

  /**
   * Writes the framed element into {@code target} at {@code position} (which must have {@link
   * #framedSize} bytes of room) and returns the position after it; lets engines append into their
   * own buffers without an intermediate array.
   */
  public static int frameInto(byte[] target, int position, byte[] element) {
    int value = element.length;
    while ((value & ~0x7f) != 0) {
      target[position++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    target[position++] = (byte) value;
    System.arraycopy(element, 0, target, position, element.length);
    return position + element.length;
  }

  /** Decodes a concatenation of framed elements; {@code null} decodes to an empty list. */
  public static List<byte[]> decode(byte[] framed) {
    if (framed == null) {
      return new ArrayList<>();
    }
    return decode(framed, framed.length);
  }

  /** Decodes the first {@code length} bytes of {@code framed} (a buffer with spare room). */
  public static List<byte[]> decode(byte[] framed, int length) {
    List<byte[]> result = new ArrayList<>();
    int pos = 0;
    while (pos < length) {
      int len = readLength(framed, pos, length);
      pos += varIntSize(len);
      if (pos + len > length) {
        throw new IllegalStateException(
            "List frame of " + len + " bytes at byte " + pos + " overruns " + length);
      }
      byte[] element = new byte[len];
      System.arraycopy(framed, pos, element, 0, len);
      result.add(element);
      pos += len;
    }
    return result;
  }

  /** The element length of the frame at {@code pos} (its bytes follow the varint). */
  public static int frameLength(byte[] framed, int pos) {
    return readLength(framed, pos, framed.length);
  }

  private static int readLength(byte[] framed, int pos, int length) {
    int len = 0;
    int shift = 0;
    while (true) {
      if (pos >= length) {
        throw new IllegalStateException("Truncated list frame at byte " + pos);
      }
      byte b = framed[pos++];
      len |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      shift += 7;
      if (shift > 28) {
        throw new IllegalStateException("Malformed list frame length at byte " + pos);
      }
    }
    if (len < 0) {
      throw new IllegalStateException("Malformed list frame length at byte " + pos);
    }
    return len;
  }

  /** Bytes of the varint that frames an element of {@code value} bytes. */
  public static int varIntSize(int value) {
    int size = 1;
    while ((value & ~0x7f) != 0) {
      size++;
      value >>>= 7;
    }
    return size;
  }

  private static void writeVarInt(ByteArrayOutputStream out, int value) {
    while ((value & ~0x7f) != 0) {
      out.write((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }
}
