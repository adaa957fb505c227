package io.arcon.state.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class ListBufferPoolTest {

  @Test
  void buffersArePowersOfTwoFromTheSmallestClassAndExactAboveTheLargest() {
    ListBufferPool pool = new ListBufferPool();
    assertEquals(ListBufferPool.MIN_BUFFER, pool.take(1).length);
    assertEquals(ListBufferPool.MIN_BUFFER, pool.take(ListBufferPool.MIN_BUFFER).length);
    assertEquals(128, pool.take(ListBufferPool.MIN_BUFFER + 1).length);
    assertEquals(1024, pool.take(1000).length);
    assertEquals(ListBufferPool.MAX_POOLED, pool.take(ListBufferPool.MAX_POOLED).length);
    assertEquals(ListBufferPool.MAX_POOLED + 1, pool.take(ListBufferPool.MAX_POOLED + 1).length);
  }

  @Test
  void aGivenBufferServesTheNextTakeOfItsClassOnly() {
    ListBufferPool pool = new ListBufferPool();
    byte[] buffer = pool.take(300);
    pool.give(buffer);
    assertEquals(512, pool.pooledBytes());
    assertNotSame(buffer, pool.take(100), "another class");
    assertSame(buffer, pool.take(257));
    assertEquals(0, pool.pooledBytes());
    assertNotSame(buffer, pool.take(300), "taken already");
  }

  @Test
  void buffersOfOtherSizesAreLeftToTheCollector() {
    ListBufferPool pool = new ListBufferPool();
    pool.give(new byte[100]); // an adopted list's exact buffer
    pool.give(new byte[32]);
    pool.give(new byte[ListBufferPool.MAX_POOLED * 2]);
    assertEquals(0, pool.pooledBytes());
  }

  /**
   * The pool keeps at most a quarter of what the table's lists use: when most lists go for good,
   * most of their memory goes back to the collector.
   */
  @Test
  void thePoolKeepsAQuarterOfWhatIsInUse() {
    ListBufferPool pool = new ListBufferPool();
    int size = 1 << 16;
    java.util.List<byte[]> taken = new java.util.ArrayList<>();
    for (int i = 0; i < 1024; i++) { // 64 MB in use
      taken.add(pool.take(size));
    }
    assertEquals(16L << 20, pool.limitBytes());
    for (byte[] buffer : taken) {
      pool.give(buffer);
    }
    // Given back one by one: kept while the pool stays within a quarter of what is still in use.
    long pooled = pool.pooledBytes();
    assertEquals(true, pooled > 0 && pooled <= (64L << 20) / 5 + size, "pooled " + pooled);
    assertEquals(ListBufferPool.MIN_LIMIT_BYTES, pool.limitBytes(), "nothing in use any more");
  }
}
