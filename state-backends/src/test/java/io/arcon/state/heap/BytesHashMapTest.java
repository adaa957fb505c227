package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.KeyBytes;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BytesHashMapTest {

  @Test
  void keysCompareByContent() {
    BytesHashMap map = new BytesHashMap();
    assertNull(map.put(new byte[] {1, 2}, "a"));
    assertEquals("a", map.get(new byte[] {1, 2}));
    assertEquals("a", map.put(new byte[] {1, 2}, "b"));
    assertEquals("b", map.get(new byte[] {1, 2}));
    assertEquals(1, map.size());
    assertNull(map.get(new byte[] {1}));
    assertNull(map.put(new byte[0], "empty"));
    assertEquals("empty", map.get(new byte[0]));
    assertEquals("b", map.remove(new byte[] {1, 2}));
    assertNull(map.remove(new byte[] {1, 2}));
    assertEquals(1, map.size());
  }

  @Test
  void newKeyArrayIsRetainedAndUpdatesKeepIt() {
    BytesHashMap map = new BytesHashMap();
    byte[] key = {7};
    map.put(key, "a");
    map.put(new byte[] {7}, "b");
    assertSame(key, slotKey(map, new byte[] {7}));
  }

  /**
   * Random puts and removes against a reference map, over few enough distinct keys that probe runs
   * collide, wrap around the table end and get holes punched in them (backward-shift deletion).
   */
  @Test
  void randomOperationsMatchAReferenceMap() {
    Random random = new Random(7);
    for (int distinct : new int[] {5, 40, 3000}) {
      BytesHashMap map = new BytesHashMap();
      Map<Integer, Integer> reference = new HashMap<>();
      for (int op = 0; op < 200_000; op++) {
        int k = random.nextInt(distinct);
        byte[] key = key(k);
        if (random.nextInt(3) == 0) {
          Integer expected = reference.remove(k);
          assertEquals(expected, map.remove(key));
        } else {
          Integer expected = reference.put(k, op);
          assertEquals(expected, map.put(key, op));
        }
        assertEquals(reference.size(), map.size());
        int probe = random.nextInt(distinct);
        assertEquals(reference.get(probe), map.get(key(probe)));
      }
      for (int k = 0; k < distinct; k++) {
        assertEquals(reference.get(k), map.get(key(k)));
      }
    }
  }

  @Test
  void slotsVisitEveryEntryOnceAcrossGrowth() {
    BytesHashMap map = new BytesHashMap();
    TreeMap<byte[], Object> reference = new TreeMap<>(KeyBytes::compare);
    for (int i = 0; i < 100_000; i++) {
      map.put(key(i), i);
      reference.put(key(i), i);
    }
    for (int i = 0; i < 100_000; i += 3) {
      map.remove(key(i));
      reference.remove(key(i));
    }
    TreeMap<byte[], Object> visited = new TreeMap<>(KeyBytes::compare);
    for (int slot = 0; slot < map.capacity(); slot++) {
      byte[] key = map.keyAt(slot);
      if (key != null) {
        assertNull(visited.put(key, map.valueAt(slot)), "a key appears in two slots");
      }
    }
    assertEquals(reference.size(), visited.size());
    assertEquals(reference, visited);
  }

  /** Keys that differ in a few adjacent bytes (big-endian counters) must not share hashes. */
  @Test
  void counterKeysGetDistinctHashes() {
    Set<Integer> hashes = new HashSet<>();
    int count = 1 << 20;
    for (int i = 0; i < count; i++) {
      hashes.add(BytesHashMap.hash(key(i)));
    }
    // A random 32-bit hash collides about count^2 / 2^33 = 128 times here.
    assertTrue(hashes.size() > count - 1_000, "distinct hashes: " + hashes.size());
  }

  private static byte[] slotKey(BytesHashMap map, byte[] key) {
    for (int slot = 0; slot < map.capacity(); slot++) {
      byte[] stored = map.keyAt(slot);
      if (stored != null && Arrays.equals(stored, key)) {
        return stored;
      }
    }
    throw new AssertionError("key not found");
  }

  static byte[] key(int k) {
    return new byte[] {(byte) (k >>> 24), (byte) (k >>> 16), (byte) (k >>> 8), (byte) k, 'v'};
  }
}
