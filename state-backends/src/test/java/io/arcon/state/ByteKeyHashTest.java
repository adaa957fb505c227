package io.arcon.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

public class ByteKeyHashTest {

  @Test
  void hashOfARangeIsTheHashOfTheRangeCopied() {
    java.util.Random random = new java.util.Random(7);
    byte[] bytes = new byte[64];
    random.nextBytes(bytes);
    for (int offset = 0; offset < 20; offset++) {
      for (int length = 0; offset + length <= bytes.length; length++) {
        assertEquals(
            ByteKeyHash.hash(java.util.Arrays.copyOfRange(bytes, offset, offset + length)),
            ByteKeyHash.hash(bytes, offset, length));
      }
    }
  }

  @Test
  void hashDependsOnContentNotIdentity() {
    assertEquals(ByteKeyHash.hash(new byte[] {1, 2}), ByteKeyHash.hash(new byte[] {1, 2}));
    assertEquals(ByteKeyHash.hash(new byte[0]), ByteKeyHash.hash(new byte[0]));
    // Lengths take part: a zero byte appended changes the hash, for short and word-sized keys.
    assertNotEquals(ByteKeyHash.hash(new byte[] {1}), ByteKeyHash.hash(new byte[] {1, 0}));
    assertNotEquals(ByteKeyHash.hash(new byte[8]), ByteKeyHash.hash(new byte[9]));
  }

  /** Keys that differ in a few adjacent bytes (big-endian counters) must not share hashes. */
  @Test
  void counterKeysGetDistinctHashes() {
    Set<Integer> hashes = new HashSet<>();
    int count = 1 << 20;
    for (int i = 0; i < count; i++) {
      hashes.add(ByteKeyHash.hash(key(i)));
    }
    // A random 32-bit hash collides about count^2 / 2^33 = 128 times here.
    assertTrue(hashes.size() > count - 1_000, "distinct hashes: " + hashes.size());
  }

  public static byte[] key(int k) {
    return new byte[] {(byte) (k >>> 24), (byte) (k >>> 16), (byte) (k >>> 8), (byte) k, 'v'};
  }
}
