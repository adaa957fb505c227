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
  void buffersOfOtherSizesAndBeyondTheCapAreLeftToTheCollector() {
    ListBufferPool pool = new ListBufferPool();
    pool.give(new byte[100]); // an adopted list's exact buffer
    pool.give(new byte[32]);
    pool.give(new byte[ListBufferPool.MAX_POOLED * 2]);
    assertEquals(0, pool.pooledBytes());
    long cap = ListBufferPool.MAX_POOLED_BYTES;
    for (long given = 0; given <= cap; given += ListBufferPool.MAX_POOLED) {
      pool.give(new byte[ListBufferPool.MAX_POOLED]);
    }
    assertEquals(cap, pool.pooledBytes());
  }
}
