package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.state.KeyedTimer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.state.TimeDomain;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class GroupedByKeyTest {

  /**
   * Rounds of random sizes (one past the size whose arrays are given back, then small ones) over
   * short keys that collide often, runs of one key, and keys that come back later in a round: each
   * round groups like an insertion-ordered map of key to timers.
   */
  @Test
  void groupsEachRoundLikeAnInsertionOrderedMap() {
    Random random = new Random(7);
    GroupedByKey<KeyedTimer> groups = new GroupedByKey<>();
    int[] sizes = {0, 1, 2, 17, 300, 40_000, 5, 3_000, 1, 20_000, 64, 65, 129};
    for (int size : sizes) {
      Map<ByteBuffer, List<TimerData>> expected = new LinkedHashMap<>();
      Map<ByteBuffer, KeyedTimer> lastOfKey = new LinkedHashMap<>();
      byte[] previousKey = null;
      for (int i = 0; i < size; i++) {
        byte[] key =
            previousKey != null && random.nextInt(3) == 0
                ? previousKey.clone()
                : randomKey(random, size);
        KeyedTimer timer = new KeyedTimer(key, timer(i));
        groups.add(key, timer);
        expected.computeIfAbsent(ByteBuffer.wrap(key), k -> new ArrayList<>()).add(timer.timer());
        lastOfKey.put(ByteBuffer.wrap(key), timer);
        previousKey = key;
      }
      assertEquals(size == 0, groups.isEmpty());
      assertEquals(size, groups.size());
      assertEquals(expected.size(), groups.keys(), "keys in a round of " + size);
      int k = 0;
      for (Map.Entry<ByteBuffer, List<TimerData>> entry : expected.entrySet()) {
        KeyedTimer last = groups.lastOf(k);
        assertArrayEquals(entry.getKey().array(), last.encodedKey(), "key " + k);
        assertArrayEquals(entry.getKey().array(), groups.keyOf(k), "key bytes " + k);
        assertEquals(lastOfKey.get(entry.getKey()).timer(), last.timer());
        assertEquals(entry.getValue(), groups.itemsOf(k, KeyedTimer::timer), "timers of key " + k);
        assertEquals(entry.getValue().size(), groups.itemsOf(k).size(), "items of key " + k);
        k++;
      }
      groups.clear();
      assertTrue(groups.isEmpty());
      assertEquals(0, groups.keys());
    }
  }

  /** Keys of one to three bytes (as short variable-length longs encode), from a small range. */
  private static byte[] randomKey(Random random, int size) {
    int bound = Math.max(2, size / 3);
    int value = random.nextInt(bound);
    if (value < 128) {
      return new byte[] {(byte) value};
    }
    if (value < 16_384) {
      return new byte[] {(byte) (0x80 | (value & 0x7f)), (byte) (value >>> 7)};
    }
    return new byte[] {
      (byte) (0x80 | (value & 0x7f)), (byte) (0x80 | ((value >>> 7) & 0x7f)), (byte) (value >>> 14)
    };
  }

  private static TimerData timer(int i) {
    return TimerData.of(
        "t" + i,
        "",
        StateNamespaces.global(),
        new Instant(i),
        new Instant(i),
        TimeDomain.EVENT_TIME);
  }
}
