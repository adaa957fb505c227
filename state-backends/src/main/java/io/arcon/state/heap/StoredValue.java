package io.arcon.state.heap;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A plain value as a heap table stores it: {@code [length as unsigned LEB128][bytes][slack]} in an
 * array whose size is rounded up to a multiple of 8.
 *
 * <p>The slack lets a later value of a slightly different length overwrite the stored one in place
 * (a counter growing by a byte, a varint crossing a size step), so updates keep creating no
 * long-lived objects. It is nearly free: the JVM pads every array to 8 bytes anyway, so only the
 * length header can add one 8-byte step.
 */
final class StoredValue {
  private StoredValue() {}

  /** A new stored form of {@code value}. */
  static byte[] of(byte[] value) {
    int header = headerSize(value.length);
    byte[] stored = new byte[(header + value.length + 7) & ~7];
    write(stored, header, value);
    return stored;
  }

  /** Overwrites {@code stored} with {@code value} if it fits; returns whether it did. */
  static boolean overwrite(byte[] stored, byte[] value) {
    int header = headerSize(value.length);
    if (header + value.length > stored.length) {
      return false;
    }
    write(stored, header, value);
    return true;
  }

  static int length(byte[] stored) {
    int length = 0;
    for (int i = 0, shift = 0; ; i++, shift += 7) {
      int b = stored[i];
      length |= (b & 0x7f) << shift;
      if (b >= 0) {
        return length;
      }
    }
  }

  /** A copy of the value's bytes. */
  static byte[] copy(byte[] stored) {
    int length = length(stored);
    int offset = headerSize(length);
    return Arrays.copyOfRange(stored, offset, offset + length);
  }

  /** Writes the value's bytes (not the header). */
  static void writeTo(OutputStream out, byte[] stored) throws IOException {
    int length = length(stored);
    out.write(stored, headerSize(length), length);
  }

  private static void write(byte[] stored, int header, byte[] value) {
    int length = value.length;
    for (int i = 0; i < header - 1; i++) {
      stored[i] = (byte) ((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    stored[header - 1] = (byte) length;
    System.arraycopy(value, 0, stored, header, value.length);
  }

  private static int headerSize(int length) {
    int size = 1;
    while ((length >>>= 7) != 0) {
      size++;
    }
    return size;
  }
}
