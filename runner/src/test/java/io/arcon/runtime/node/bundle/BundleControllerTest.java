package io.arcon.runtime.node.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.job.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BundleControllerTest {
  private final List<String> events = new ArrayList<>();
  private final ManualClock clock = new ManualClock(1_000);

  private BundleController controller(long maxSize, long maxTime, boolean eager) {
    return new BundleController(
        new BundleController.Bundle() {
          @Override
          public void start() {
            events.add("start@" + clock.nowMillis());
          }

          @Override
          public void finish() {
            events.add("finish@" + clock.nowMillis());
          }
        },
        clock,
        maxSize,
        maxTime,
        eager);
  }

  @Test
  void opensOnceAndFinishesWhenFull() throws Exception {
    BundleController bundle = controller(10, 1_000, false);
    assertEquals(Long.MAX_VALUE, bundle.deadline());
    bundle.ensureOpen();
    bundle.ensureOpen();
    for (int slice = 1; slice <= 4; slice *= 2) {
      assertEquals(slice, bundle.slice(512), "slices double while fast");
      bundle.handedIn(slice);
    }
    assertTrue(bundle.isOpen(), "7 of 10 elements");
    assertEquals(3, bundle.slice(512), "no more than the bundle's room");
    bundle.handedIn(3);
    assertFalse(bundle.isOpen());
    bundle.finish(); // nothing open: no second finish
    bundle.ensureOpen();
    bundle.handedIn(bundle.slice(9));
    assertTrue(bundle.isOpen(), "a new bundle counts from zero");
    assertEquals(List.of("start@1000", "finish@1000", "start@1000"), events);
  }

  @Test
  void finishesByAge() throws Exception {
    BundleController bundle = controller(1_000, 50, false);
    bundle.ensureOpen();
    assertEquals(1_050, bundle.deadline());
    clock.advance(49);
    bundle.finishIfExpired(clock.nowMillis());
    assertTrue(bundle.isOpen());
    clock.advance(1);
    bundle.finishIfExpired(clock.nowMillis());
    assertFalse(bundle.isOpen());
    assertEquals(List.of("start@1000", "finish@1050"), events);
  }

  @Test
  void slicesGrowWhileFastAndShrinkToOneElementWhenSlow() throws Exception {
    BundleController bundle = controller(1_000_000, 1_000, false);
    bundle.ensureOpen();
    assertEquals(BundleController.FIRST_SLICE, bundle.slice(512), "a node starts small");
    bundle.handedIn(BundleController.FIRST_SLICE);
    for (int i = 0; i < 10; i++) {
      bundle.handedIn(bundle.slice(512));
    }
    assertEquals(512, bundle.slice(512), "fast slices grow to whole batches");
    clock.advance(126); // a slice over an eighth of the bundle time
    bundle.handedIn(512);
    assertEquals(1, bundle.slice(512), "one element at a time after a slow slice");
    bundle.handedIn(1);
    assertEquals(2, bundle.slice(512), "and growing again while fast");
  }

  @Test
  void aBundleEndsByAgeInsideABatchOfSlowElements() throws Exception {
    BundleController bundle = controller(1_000, 1_000, false);
    int handed = 0;
    bundle.ensureOpen();
    // 512 elements of 50 ms each: the bundle ends after its second, not after the batch.
    while (bundle.isOpen() && handed < 512) {
      int n = bundle.slice(512 - handed);
      clock.advance(50L * n);
      bundle.handedIn(n);
      handed += n;
    }
    assertFalse(bundle.isOpen());
    assertTrue(handed < 40, "ended after " + handed + " elements of 50 ms");
  }

  @Test
  void eagerBundlesEndWithEveryMessage() throws Exception {
    BundleController eager = controller(1_000, 1_000, true);
    eager.ensureOpen();
    eager.messageHandled();
    assertFalse(eager.isOpen());
    BundleController lazy = controller(1_000, 1_000, false);
    lazy.ensureOpen();
    lazy.messageHandled();
    assertTrue(lazy.isOpen());
  }
}
