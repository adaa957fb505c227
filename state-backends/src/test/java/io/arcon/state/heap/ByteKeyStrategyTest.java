package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import it.unimi.dsi.fastutil.objects.Object2ObjectOpenCustomHashMap;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ByteKeyStrategyTest {

  @Test
  void keysCompareByContent() {
    Object2ObjectOpenCustomHashMap<byte[], Object> map =
        new Object2ObjectOpenCustomHashMap<>(ByteKeyStrategy.INSTANCE);
    assertNull(map.put(new byte[] {1, 2}, "a"));
    assertEquals("a", map.get(new byte[] {1, 2}));
    assertEquals("a", map.put(new byte[] {1, 2}, "b"));
    assertNull(map.get(new byte[] {1}));
    assertNull(map.put(new byte[0], "empty"));
    assertEquals("empty", map.get(new byte[0]));
    assertEquals("b", map.remove(new byte[] {1, 2}));
    assertEquals(1, map.size());
    assertTrue(ByteKeyStrategy.INSTANCE.equals(new byte[] {3}, new byte[] {3}));
    assertFalse(ByteKeyStrategy.INSTANCE.equals(new byte[] {3}, null));
  }

  /** Keys that differ in a few adjacent bytes (big-endian counters) must not share hashes. */
  @Test
  void counterKeysGetDistinctHashes() {
    Set<Integer> hashes = new HashSet<>();
    int count = 1 << 20;
    for (int i = 0; i < count; i++) {
      hashes.add(ByteKeyStrategy.hash(key(i)));
    }
    // A random 32-bit hash collides about count^2 / 2^33 = 128 times here.
    assertTrue(hashes.size() > count - 1_000, "distinct hashes: " + hashes.size());
  }

  static byte[] key(int k) {
    return new byte[] {(byte) (k >>> 24), (byte) (k >>> 16), (byte) (k >>> 8), (byte) k, 'v'};
  }
}
