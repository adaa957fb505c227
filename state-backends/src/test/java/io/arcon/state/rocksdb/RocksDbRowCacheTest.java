package io.arcon.state.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.KeyBytes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RocksDbRowCacheTest {
  private static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  /** Collects what a write-back sends. */
  private static final class Recorded implements RocksDbRowCache.DirtyRows {
    final List<byte[]> keys = new ArrayList<>();
    final List<byte[]> values = new ArrayList<>();

    @Override
    public void put(byte[] key, byte[] value) {
      keys.add(key);
      values.add(value);
    }

    @Override
    public void delete(byte[] key) {
      keys.add(key);
      values.add(null);
    }
  }

  @Test
  void writeBackSendsEachDirtyRowOnceInKeyOrderAcrossGrowth() throws Exception {
    RocksDbRowCache cache = new RocksDbRowCache(1L << 30);
    Random random = new Random(3);
    int rows = 5000; // the table starts at 1,024 slots: it grows several times with rows listed
    for (int n = 0; n < 3 * rows; n++) {
      int i = random.nextInt(rows);
      byte[] k = key(i);
      byte state = i % 7 == 0 ? RocksDbRowCache.DELETED : RocksDbRowCache.PUT;
      cache.set(cache.find(k), k, state, state == RocksDbRowCache.PUT ? key(n) : null);
    }
    Recorded out = new Recorded();
    int sent = cache.writeBack(out);
    assertEquals(cache.size(), sent);
    for (int j = 1; j < out.keys.size(); j++) {
      assertTrue(KeyBytes.compare(out.keys.get(j - 1), out.keys.get(j)) < 0, "order at " + j);
    }
    for (int j = 0; j < out.keys.size(); j++) {
      int i = ByteBuffer.wrap(out.keys.get(j)).getInt();
      int slot = cache.find(out.keys.get(j));
      if (i % 7 == 0) {
        assertNull(out.values.get(j));
        assertEquals(RocksDbRowCache.ABSENT, cache.state(slot));
      } else {
        assertArrayEquals(cache.value(slot), out.values.get(j));
        assertEquals(RocksDbRowCache.CLEAN, cache.state(slot));
      }
    }
    assertFalse(cache.hasDirtyRows());
    assertEquals(0, cache.writeBack(new Recorded()));
  }

  @Test
  void aRowThatStoppedBeingDirtyIsNotSentAndARedirtiedOneOnlyOnce() throws Exception {
    RocksDbRowCache cache = new RocksDbRowCache(1L << 20);
    byte[] a = key(1);
    byte[] b = key(2);
    cache.set(cache.find(a), a, RocksDbRowCache.PUT, key(10));
    cache.set(cache.find(a), a, RocksDbRowCache.UNCACHED, null); // written through
    cache.set(cache.find(b), b, RocksDbRowCache.PUT_NEW, key(20));
    cache.set(cache.find(b), b, RocksDbRowCache.PUT, key(21));
    cache.set(cache.find(a), a, RocksDbRowCache.PUT, key(11));
    Recorded out = new Recorded();
    assertEquals(2, cache.writeBack(out));
    assertArrayEquals(a, out.keys.get(0));
    assertArrayEquals(key(11), out.values.get(0));
    assertArrayEquals(key(21), out.values.get(1));
  }

  @Test
  void bytesFollowKeysAndValuesAndClearForgetsEverything() {
    RocksDbRowCache cache = new RocksDbRowCache(200);
    byte[] k = key(1);
    cache.set(cache.find(k), k, RocksDbRowCache.PUT, new byte[100]);
    long one = cache.bytes();
    assertFalse(cache.overBudget());
    cache.set(cache.find(k), k, RocksDbRowCache.PUT, new byte[150]);
    assertEquals(one + 50, cache.bytes());
    assertTrue(cache.overBudget());
    cache.clear();
    assertEquals(0, cache.size());
    assertEquals(0, cache.bytes());
    assertFalse(cache.hasDirtyRows());
    assertFalse(cache.answers(cache.find(k)));
  }
}
