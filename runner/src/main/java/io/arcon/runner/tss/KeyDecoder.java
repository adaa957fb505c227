package io.arcon.runner.tss;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;

/**
 * Decodes the encoded keys of one state read, exactly as {@code CoderUtils.decodeFromByteArray}
 * does (outer context, every byte consumed), but through one reused stream without locking.
 *
 * <p>Extraction decodes a key per row; {@code CoderUtils} wraps each array in two streams, and its
 * {@code ByteArrayInputStream} takes a lock on every {@code read()}, which coders such as {@code
 * VarLongCoder} call byte by byte. Not thread-safe: one decoder per reading thread.
 */
final class KeyDecoder {
  private final Coder<?> coder;
  private final Input input = new Input();

  KeyDecoder(Coder<?> coder) {
    this.coder = Objects.requireNonNull(coder, "coder");
  }

  /** The key {@code encoded} holds. */
  @SuppressWarnings("deprecation") // Context.OUTER: the context the keys were encoded with
  Object decode(byte[] encoded) throws IOException {
    input.reset(encoded);
    Object key = coder.decode(input, Coder.Context.OUTER);
    if (input.available() != 0) {
      throw new CoderException(
          input.available() + " unexpected extra bytes after decoding " + key + " with " + coder);
    }
    return key;
  }

  /** An input stream over one byte array at a time. */
  private static final class Input extends InputStream {
    private byte[] bytes = new byte[0];
    private int pos;

    void reset(byte[] next) {
      bytes = next;
      pos = 0;
    }

    @Override
    public int read() {
      return pos < bytes.length ? bytes[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
      Objects.checkFromIndexSize(offset, length, target.length);
      if (length == 0) {
        return 0;
      }
      int available = bytes.length - pos;
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
      long skipped = Math.max(0, Math.min(n, bytes.length - pos));
      pos += (int) skipped;
      return skipped;
    }

    @Override
    public int available() {
      return bytes.length - pos;
    }
  }
}
