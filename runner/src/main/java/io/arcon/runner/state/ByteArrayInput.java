package io.arcon.runner.state;

import java.io.InputStream;
import java.util.Objects;

/**
 * An input stream over a byte array, from an offset up to an end, that can be pointed at the next
 * array: what coders decode stored bytes from. Unlike {@code ByteArrayInputStream} it takes no
 * lock: coders read values byte by byte, and each synchronized {@code read()} costs an atomic
 * operation once the stream escapes into the coder. Not thread-safe.
 */
public final class ByteArrayInput extends InputStream {
  private byte[] bytes;
  private int pos;

  /** Where the readable bytes end (exclusive). */
  private int end;

  public ByteArrayInput(byte[] bytes, int offset) {
    reset(bytes, offset);
  }

  /** Reads {@code bytes[offset, end)}. */
  public ByteArrayInput(byte[] bytes, int offset, int end) {
    Objects.checkFromToIndex(offset, end, bytes.length);
    this.bytes = bytes;
    this.pos = offset;
    this.end = end;
  }

  /** Reads {@code bytes} from {@code offset} on, forgetting the previous array. */
  public ByteArrayInput reset(byte[] bytes, int offset) {
    Objects.checkIndex(offset, bytes.length + 1);
    this.bytes = bytes;
    this.pos = offset;
    this.end = bytes.length;
    return this;
  }

  @Override
  public int read() {
    return pos < end ? bytes[pos++] & 0xff : -1;
  }

  @Override
  public int read(byte[] target, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, target.length);
    if (length == 0) {
      return 0;
    }
    int available = end - pos;
    if (available <= 0) {
      return -1;
    }
    int n = Math.min(length, available);
    System.arraycopy(bytes, pos, target, offset, n);
    pos += n;
    return n;
  }

  @Override
  public long skip(long n) {
    long skipped = Math.max(0, Math.min(n, end - pos));
    pos += (int) skipped;
    return skipped;
  }

  @Override
  public int available() {
    return end - pos;
  }
}
