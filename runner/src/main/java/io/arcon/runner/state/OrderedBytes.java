package io.arcon.runner.state;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer for building ordered binary keys, plus the static decoders for the pieces
 * it writes. One instance is reused per owner (single-threaded), so building a key allocates only
 * the final array. It is an {@link OutputStream} so that Beam coders encode straight into it.
 *
 * <p>Pieces:
 *
 * <ul>
 *   <li><b>length-prefixed bytes</b>: a 4-byte big-endian length, then the bytes. The prefix makes
 *       every part prefix-free, so {@code key=a} never matches a scan over {@code key=ab}.
 *   <li><b>ordered long</b> (timestamps): 8 bytes big-endian with the sign bit flipped, so unsigned
 *       lexicographic order of the bytes is the numeric order of the longs (negative event times
 *       sort before positive ones).
 * </ul>
 */
public final class OrderedBytes extends OutputStream {
  private byte[] buf;
  private int len;

  public OrderedBytes(int initialCapacity) {
    buf = new byte[initialCapacity];
  }

  public OrderedBytes reset() {
    len = 0;
    return this;
  }

  @Override
  public void write(int b) {
    writeByte(b);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    writeBytes(bytes, offset, length);
  }

  public OrderedBytes writeByte(int b) {
    ensure(1);
    buf[len++] = (byte) b;
    return this;
  }

  public OrderedBytes writeBytes(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
    return this;
  }

  public OrderedBytes writeBytes(byte[] bytes, int offset, int length) {
    ensure(length);
    System.arraycopy(bytes, offset, buf, len, length);
    len += length;
    return this;
  }

  public OrderedBytes writeLengthPrefixed(byte[] bytes) {
    writeInt(bytes.length);
    return writeBytes(bytes);
  }

  public OrderedBytes writeLengthPrefixed(String s) {
    return writeLengthPrefixed(s.getBytes(StandardCharsets.UTF_8));
  }

  public OrderedBytes writeInt(int v) {
    ensure(4);
    buf[len++] = (byte) (v >>> 24);
    buf[len++] = (byte) (v >>> 16);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
    return this;
  }

  /** Writes a long so that byte order equals numeric order. */
  public OrderedBytes writeOrderedLong(long v) {
    return writeRawLong(v ^ Long.MIN_VALUE);
  }

  /** Writes a plain big-endian long (values, not keys: no ordering needed). */
  public OrderedBytes writeRawLong(long v) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[len++] = (byte) (v >>> shift);
    }
    return this;
  }

  public int length() {
    return len;
  }

  /**
   * The array written so far holds the bytes in {@code [0, length())}; valid until the next write
   * or reset, for callers that copy the bytes where they go ({@code StateTable.putCopyOf}).
   */
  public byte[] buffer() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }
  }

  // ---- decoders -------------------------------------------------------------------------------

  public static int readInt(byte[] b, int pos) {
    return ((b[pos] & 0xff) << 24)
        | ((b[pos + 1] & 0xff) << 16)
        | ((b[pos + 2] & 0xff) << 8)
        | (b[pos + 3] & 0xff);
  }

  public static long readRawLong(byte[] b, int pos) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[pos + i] & 0xffL);
    }
    return v;
  }

  public static long readOrderedLong(byte[] b, int pos) {
    return readRawLong(b, pos) ^ Long.MIN_VALUE;
  }

  /** The bytes of the length-prefixed part starting at {@code pos}. */
  public static byte[] readLengthPrefixed(byte[] b, int pos) {
    int n = readInt(b, pos);
    if (n < 0 || pos + 4 + n > b.length) {
      throw new IndexOutOfBoundsException(
          "length-prefixed part of " + n + " bytes at " + pos + " overruns " + b.length);
    }
    return Arrays.copyOfRange(b, pos + 4, pos + 4 + n);
  }

  /** Position just after the length-prefixed part starting at {@code pos}. */
  public static int skipLengthPrefixed(byte[] b, int pos) {
    return pos + 4 + readInt(b, pos);
  }

  public static byte[] orderedLong(long v) {
    return new OrderedBytes(8).writeOrderedLong(v).toByteArray();
  }
}
