package io.arcon.state.lmdb;

import java.nio.ByteBuffer;

/**
 * The stored form of keys: a one-byte marker followed by the key, in a reused direct buffer.
 *
 * <p>The marker exists because LMDB refuses zero-length keys while the SPI allows the empty key; a
 * constant first byte keeps the unsigned order of the keys unchanged. It costs one byte of LMDB's
 * 511-byte key limit, so keys of up to 510 bytes are accepted.
 */
final class LmdbKeys {
  private static final byte MARKER = 0x4b; // 'K'

  private final ByteBuffer buffer;
  private final int maxKeyBytes;

  LmdbKeys(int lmdbMaxKeySize) {
    this.maxKeyBytes = lmdbMaxKeySize - 1;
    this.buffer = ByteBuffer.allocateDirect(lmdbMaxKeySize);
  }

  int maxKeyBytes() {
    return maxKeyBytes;
  }

  /** The stored form of {@code key}, valid until the next call; the key must fit. */
  ByteBuffer encode(byte[] key) {
    buffer.clear();
    buffer.put(MARKER).put(key).flip();
    return buffer;
  }

  /**
   * The stored form of a scan or range bound, which may be longer than any storable key: it is cut
   * to the longest storable prefix, which seeks to at or before the bound; callers skip keys below
   * the real bound.
   */
  ByteBuffer encodeBound(byte[] bound) {
    buffer.clear();
    buffer.put(MARKER).put(bound, 0, Math.min(bound.length, maxKeyBytes)).flip();
    return buffer;
  }

  /** The caller's key from a stored key. */
  byte[] decode(ByteBuffer stored) {
    byte[] key = new byte[stored.remaining() - 1];
    stored.get(stored.position() + 1, key);
    return key;
  }
}
