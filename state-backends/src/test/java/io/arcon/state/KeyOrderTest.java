package io.arcon.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyOrderTest {
  /** Asserts that the positions are a permutation whose keys ascend. */
  private static void assertSorted(byte[][] keys, int count) {
    int[] order = KeyOrder.sortedPositions(keys, count);
    assertEquals(count, order.length);
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < count; i++) {
      assertTrue(seen.add(order[i]), "position " + order[i] + " twice");
      assertTrue(order[i] >= 0 && order[i] < count);
      if (i > 0) {
        assertTrue(
            KeyBytes.compare(keys[order[i - 1]], keys[order[i]]) <= 0,
            "out of order at "
                + i
                + ": "
                + Arrays.toString(keys[order[i - 1]])
                + " then "
                + Arrays.toString(keys[order[i]]));
      }
    }
  }

  @Test
  void randomKeysOfRandomLengths() {
    Random random = new Random(7);
    for (int round = 0; round < 50; round++) {
      int count = random.nextInt(3000);
      byte[][] keys = new byte[count][];
      for (int i = 0; i < count; i++) {
        keys[i] = new byte[random.nextInt(12)];
        random.nextBytes(keys[i]);
      }
      assertSorted(keys, count);
    }
  }

  @Test
  void keysSharingALongPrefixAreOrderedByWhatFollowsIt() {
    // A timer index: domain, one timestamp for every key, then a length and the key.
    Random random = new Random(11);
    int count = 20_000;
    byte[][] keys = new byte[count][];
    for (int i = 0; i < count; i++) {
      keys[i] =
          ByteBuffer.allocate(1 + 8 + 4 + 8)
              .put((byte) 0)
              .putLong(Long.MAX_VALUE - 5)
              .putInt(8)
              .putLong(random.nextLong())
              .array();
    }
    assertSorted(keys, count);
  }

  @Test
  void tiesInTheFirstFiveBytesAreBrokenByTheWholeKey() {
    // Long runs of equal five-byte prefixes (beyond the insertion-sort size), bytes above 0x7f
    // (unsigned order), zero padding against real zeros, and keys that are prefixes of others.
    Random random = new Random(3);
    int count = 5_000;
    byte[][] keys = new byte[count][];
    for (int i = 0; i < count; i++) {
      byte[] head = {(byte) (random.nextInt(3) * 0x70), 0, 0, 0, (byte) random.nextInt(2)};
      byte[] tail = new byte[random.nextInt(4)];
      random.nextBytes(tail);
      keys[i] = KeyBytes.concat(head, tail);
    }
    keys[0] = new byte[] {0};
    keys[1] = new byte[] {0, 0, 0, 0, 0};
    keys[2] = new byte[] {0, 0, 0, 0, 0, 0};
    keys[3] = new byte[] {};
    keys[4] = new byte[] {(byte) 0xff};
    assertSorted(keys, count);
  }

  @Test
  void onlyTheFirstCountKeysAreSorted() {
    byte[][] keys = {{3}, {1}, {2}, null, null};
    assertEquals(
        Arrays.toString(new int[] {1, 2, 0}), Arrays.toString(KeyOrder.sortedPositions(keys, 3)));
    assertEquals(0, KeyOrder.sortedPositions(keys, 0).length);
    assertEquals(1, KeyOrder.sortedPositions(keys, 1).length);
  }
}
