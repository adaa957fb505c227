package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.ByteKeyHash;
import io.arcon.state.ByteKeyHashTest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlabHashMapTest {

  @Test
  void insertFindOverwriteAndRemove() {
    SlabHashMap map = new SlabHashMap();
    assertEquals(-1, map.indexOf(new byte[] {1}));
    map.insertValue(new byte[] {1}, new byte[] {10});
    map.insertValue(new byte[0], new byte[0]);
    map.insertValue(new byte[] {1, 0}, new byte[] {11, 12});
    assertEquals(3, map.size());
    assertArrayEquals(new byte[] {10}, map.value(map.indexOf(new byte[] {1})));
    assertArrayEquals(new byte[0], map.value(map.indexOf(new byte[0])));
    assertArrayEquals(new byte[] {1, 0}, map.key(map.indexOf(new byte[] {1, 0})));

    int position = map.indexOf(new byte[] {1});
    map.setValue(position, new byte[] {20, 21, 22});
    assertArrayEquals(new byte[] {20, 21, 22}, map.value(map.indexOf(new byte[] {1})));
    assertEquals(3, map.valueLength(map.indexOf(new byte[] {1})));

    assertEquals(3, map.overwriteInline(map.indexOf(new byte[] {1}), new byte[] {30}, 1));
    assertArrayEquals(new byte[] {30}, map.value(map.indexOf(new byte[] {1})));
    assertEquals(-1, map.overwriteInline(map.indexOf(new byte[] {1}), new byte[60], 60));
    assertArrayEquals(new byte[] {30}, map.value(map.indexOf(new byte[] {1})));

    map.removeAt(map.indexOf(new byte[] {1}));
    assertEquals(-1, map.indexOf(new byte[] {1}));
    assertEquals(2, map.size());
    assertArrayEquals(new byte[] {11, 12}, map.value(map.indexOf(new byte[] {1, 0})));
  }

  /**
   * A lookup repeated with the same key array finds the key where it is now: inserts (that resize
   * the table) and removals (that shift cells back) in between move it, and an absent key inserted
   * since is found.
   */
  @Test
  void aRepeatedLookupOfOneArrayFollowsTheKeyAsCellsMove() {
    SlabHashMap map = new SlabHashMap();
    byte[] watched = ByteKeyHashTest.key(0);
    assertEquals(-1, map.indexOf(watched));
    map.insertValue(watched.clone(), new byte[] {42});
    assertArrayEquals(new byte[] {42}, map.value(map.indexOf(watched)));
    Random random = new Random(3);
    Map<Integer, byte[]> present = new HashMap<>();
    for (int step = 1; step < 5_000; step++) {
      int k = 1 + random.nextInt(2_000);
      byte[] key = ByteKeyHashTest.key(k);
      int position = map.indexOf(key);
      if (position < 0) {
        map.insertValue(key, new byte[] {(byte) step});
        present.put(k, key);
      } else if (random.nextBoolean()) {
        map.removeAt(position);
        present.remove(k);
      }
      int found = map.indexOf(watched);
      assertArrayEquals(watched, map.key(found), "step " + step);
      assertArrayEquals(new byte[] {42}, map.value(found), "step " + step);
    }
    map.removeAt(map.indexOf(watched));
    assertEquals(-1, map.indexOf(watched));
    assertEquals(present.size(), map.size());
  }

  @Test
  void valuesGrowAndShrinkInPlaceOrByMoving() {
    SlabHashMap map = new SlabHashMap();
    byte[] key = "the-key".getBytes();
    map.insertValue(key, new byte[1]);
    for (int length : new int[] {0, 5, 1, 100, 3, 5_000, 2, 100_000, 0, 17}) {
      byte[] value = new byte[length];
      Arrays.fill(value, (byte) length);
      map.setValue(map.indexOf(key), value);
      assertArrayEquals(value, map.value(map.indexOf(key)));
      assertArrayEquals(key, map.key(map.indexOf(key)));
    }
    assertEquals(1, map.size());
  }

  @Test
  void objectsAndInlineValuesReplaceEachOther() {
    SlabHashMap map = new SlabHashMap();
    byte[] key = {7};
    Object first = new Object();
    map.insertObject(key, first);
    assertTrue(map.isObject(map.indexOf(key)));
    assertSame(first, map.object(map.indexOf(key)));
    map.setValue(map.indexOf(key), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9});
    assertFalse(map.isObject(map.indexOf(key)));
    assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, map.value(map.indexOf(key)));
    Object second = "second";
    map.setObject(map.indexOf(key), second);
    assertSame(second, map.object(map.indexOf(key)));
    Object third = "third";
    map.setObject(map.indexOf(key), third);
    assertSame(third, map.object(map.indexOf(key)));
    map.insertObject(new byte[] {8}, "other");
    map.removeAt(map.indexOf(key));
    assertEquals("other", map.object(map.indexOf(new byte[] {8})));
  }

  /** Many keys with the same hash: probing, and deletion must keep every other key findable. */
  @Test
  void collidingHashesStayFindableThroughDeletes() {
    SlabHashMap map = new SlabHashMap();
    // Keys that all fall into few home slots of a small table: real hash collisions are rare, so
    // this relies on many keys and on removals in the middle of probe runs.
    Map<Integer, byte[]> reference = new HashMap<>();
    Random random = new Random(5);
    for (int round = 0; round < 200_000; round++) {
      int k = random.nextInt(3_000);
      byte[] key = ByteKeyHashTest.key(k);
      int position = map.indexOf(key);
      assertEquals(reference.containsKey(k), position >= 0);
      if (random.nextInt(3) == 0) {
        if (position >= 0) {
          map.removeAt(position);
          reference.remove(k);
        }
      } else {
        byte[] value = new byte[random.nextInt(40)];
        random.nextBytes(value);
        putValue(map, key, position, value);
        reference.put(k, value);
      }
      assertEquals(reference.size(), map.size());
    }
    for (Map.Entry<Integer, byte[]> e : reference.entrySet()) {
      assertArrayEquals(e.getValue(), map.value(map.indexOf(ByteKeyHashTest.key(e.getKey()))));
    }
  }

  /** Distinct keys with equal 32-bit hashes (found by brute force) must not be confused. */
  @Test
  void keysWithEqualHashesAreKeptApart() {
    Map<Integer, byte[]> firstByHash = new HashMap<>();
    java.util.List<byte[]> colliding = new java.util.ArrayList<>();
    for (int i = 0; i < 1 << 20 && colliding.size() < 40; i++) {
      byte[] key = ByteKeyHashTest.key(i);
      byte[] earlier = firstByHash.putIfAbsent(ByteKeyHash.hash(key), key);
      if (earlier != null) {
        colliding.add(earlier);
        colliding.add(key);
      }
    }
    assertTrue(colliding.size() >= 2, "no colliding pair found");
    SlabHashMap map = new SlabHashMap();
    for (int i = 0; i < colliding.size(); i++) {
      if (map.indexOf(colliding.get(i)) < 0) {
        map.insertValue(colliding.get(i), new byte[] {(byte) i});
      }
    }
    for (int i = 0; i < colliding.size(); i += 2) {
      byte[] a = colliding.get(i);
      byte[] b = colliding.get(i + 1);
      assertFalse(Arrays.equals(a, b));
      assertFalse(map.indexOf(a) == map.indexOf(b));
      assertArrayEquals(a, map.key(map.indexOf(a)));
      assertArrayEquals(b, map.key(map.indexOf(b)));
      map.removeAt(map.indexOf(a));
      assertEquals(-1, map.indexOf(a));
      assertArrayEquals(b, map.key(map.indexOf(b)));
    }
  }

  @Test
  void growsCompactsAndIterates() {
    SlabHashMap map = new SlabHashMap();
    int count = 300_000;
    for (int i = 0; i < count; i++) {
      map.insertValue(ByteKeyHashTest.key(i), value(i, i % 20));
    }
    assertEquals(count, map.size());
    // Spans several 16 MiB chunks once values grow: every value moves.
    for (int i = 0; i < count; i++) {
      map.setValue(map.indexOf(ByteKeyHashTest.key(i)), value(i, 40 + i % 50));
    }
    // Remove most entries: the slab is compacted along the way.
    for (int i = 0; i < count; i++) {
      if (i % 10 != 0) {
        map.removeAt(map.indexOf(ByteKeyHashTest.key(i)));
      }
    }
    assertEquals(count / 10, map.size());
    assertTrue(map.deadBytes() < 64L * count, "dead bytes: " + map.deadBytes());
    int seen = 0;
    for (int p = map.nextPosition(0); p >= 0; p = map.nextPosition(p + 1)) {
      byte[] key = map.key(p);
      int i = java.nio.ByteBuffer.wrap(key, 0, 4).getInt();
      assertEquals(0, i % 10);
      assertArrayEquals(value(i, 40 + i % 50), map.value(p));
      seen++;
    }
    assertEquals(count / 10, seen);
    map.compact();
    for (int i = 0; i < count; i += 10) {
      assertArrayEquals(value(i, 40 + i % 50), map.value(map.indexOf(ByteKeyHashTest.key(i))));
    }
  }

  /** Keys and values around the cell's inline capacity move between the cell and the slab. */
  @Test
  void entriesMoveBetweenCellAndSlab() {
    SlabHashMap map = new SlabHashMap();
    Random random = new Random(9);
    Map<Integer, Object> reference = new HashMap<>();
    for (int round = 0; round < 50_000; round++) {
      int k = random.nextInt(500);
      byte[] key = longKey(k);
      int position = map.indexOf(key);
      int action = random.nextInt(10);
      if (action == 0 && position >= 0) {
        map.removeAt(position);
        reference.remove(k);
      } else if (action < 3) {
        Object list = "list-" + round;
        if (position >= 0) {
          map.setObject(position, list);
        } else {
          map.insertObject(key, list);
        }
        reference.put(k, list);
      } else {
        byte[] value = new byte[random.nextInt(SlabHashMap.INLINE_BYTES + 20)];
        random.nextBytes(value);
        putValue(map, key, position, value);
        reference.put(k, value);
      }
    }
    assertEquals(reference.size(), map.size());
    for (Map.Entry<Integer, Object> e : reference.entrySet()) {
      int position = map.indexOf(longKey(e.getKey()));
      assertArrayEquals(longKey(e.getKey()), map.key(position));
      if (e.getValue() instanceof byte[] bytes) {
        assertFalse(map.isObject(position));
        assertEquals(bytes.length, map.valueLength(position));
        assertArrayEquals(bytes, map.value(position));
      } else {
        assertTrue(map.isObject(position));
        assertSame(e.getValue(), map.object(position));
      }
    }
  }

  /** Keys of 2 to 70 bytes: some fit a cell with their value or object, some never do. */
  private static byte[] longKey(int k) {
    byte[] key = new byte[2 + k % 69];
    Arrays.fill(key, (byte) 'k');
    key[0] = (byte) (k >>> 8);
    key[1] = (byte) k;
    return key;
  }

  @Test
  void entriesLargerThanAChunk() {
    SlabHashMap map = new SlabHashMap();
    byte[] big = new byte[SlabHashMap.CHUNK_SIZE + 100];
    big[big.length - 1] = 42;
    map.insertValue(new byte[] {1}, new byte[] {1});
    map.insertValue(new byte[] {2}, big);
    map.insertValue(new byte[] {3}, new byte[] {3});
    assertArrayEquals(big, map.value(map.indexOf(new byte[] {2})));
    assertArrayEquals(new byte[] {1}, map.value(map.indexOf(new byte[] {1})));
    assertArrayEquals(new byte[] {3}, map.value(map.indexOf(new byte[] {3})));
    map.removeAt(map.indexOf(new byte[] {2}));
    map.compact();
    assertArrayEquals(new byte[] {3}, map.value(map.indexOf(new byte[] {3})));
    assertEquals(2, map.size());
  }

  private static byte[] value(int i, int length) {
    byte[] value = new byte[length];
    Arrays.fill(value, (byte) i);
    return value;
  }

  /** Overwrites the value at {@code position} (from {@code indexOf}) or inserts {@code key}. */
  private static void putValue(SlabHashMap map, byte[] key, int position, byte[] value) {
    if (position >= 0) {
      map.setValue(position, value);
    } else {
      map.insertValue(key, value);
    }
  }
}
