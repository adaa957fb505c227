package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class BundleWindowsCacheTest {
  private static byte[] key(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aKeyIsHeldOnceAndWrittenBackInTheOrderItCameThenTheCacheIsEmpty() {
    BundleWindowsCache<String> cache = new BundleWindowsCache<>();
    BundleWindowsCache.Entry<String> a = cache.entry(key("a"), "a");
    assertNull(a.windows, "a new entry is read from the cell by the caller");
    a.windows = MergingWindows.empty();
    a.eventTime = new Instant(1);
    BundleWindowsCache.Entry<String> b = cache.entry(key("b"), "b");
    b.windows = MergingWindows.empty();
    // Equal bytes in another array, not after itself: found by hash.
    BundleWindowsCache.Entry<String> again = cache.entry(key("a"), "a");
    assertSame(a, again);
    again.eventTime = new Instant(7);

    List<String> written = new ArrayList<>();
    cache.writeBack(
        e -> written.add(e.key + "@" + (e.eventTime == null ? "-" : e.eventTime.getMillis())));
    assertEquals(List.of("a@7", "b@-"), written);
    assertTrue(cache.isEmpty());
    List<String> none = new ArrayList<>();
    cache.writeBack(e -> none.add(e.key));
    assertEquals(List.of(), none);
    assertNull(cache.entry(key("a"), "a").windows, "a written-back key is read again");
  }

  @Test
  void keysThatDoNotComeBackAreNotHeldUntilAProbeBundleSeesThemComeBack() {
    BundleWindowsCache<String> cache = new BundleWindowsCache<>();
    assertTrue(cache.isHolding());
    // A bundle of distinct keys: no element finds its key held.
    for (int i = 0; i < 100; i++) {
      assertNotNull(cache.entry(key("k" + i), "k" + i));
    }
    cache.writeBack(e -> {});
    assertFalse(cache.isHolding());
    // Not held: the caller writes; after PROBE_EVERY - 1 such bundles still not held.
    for (int bundle = 1; bundle < BundleWindowsCache.PROBE_EVERY; bundle++) {
      for (int i = 0; i < 100; i++) {
        assertNull(cache.entry(key("k" + i), "k" + i));
      }
      cache.writeBack(e -> {});
      assertFalse(cache.isHolding(), "bundle " + bundle);
    }
    for (int i = 0; i < 100; i++) {
      cache.entry(key("k" + i), "k" + i);
    }
    cache.writeBack(e -> {});
    assertTrue(cache.isHolding(), "the probe bundle");
    // The probe sees one hot key: three elements in four find it held, so holding goes on.
    for (int i = 0; i < 100; i++) {
      String k = i % 4 == 0 ? "cold" + i : "hot";
      cache.entry(key(k), k);
    }
    cache.writeBack(e -> {});
    assertTrue(cache.isHolding());
  }

  @Test
  void bundlesShorterThanTheSampleAreJudgedTogether() {
    BundleWindowsCache<String> cache = new BundleWindowsCache<>();
    for (int bundle = 0; bundle < 20; bundle++) {
      for (int i = 0; i < BundleWindowsCache.MIN_SAMPLE / 4; i++) {
        cache.entry(key("k" + bundle + "-" + i), "k");
      }
      cache.writeBack(e -> {});
    }
    // A quarter of MIN_SAMPLE per bundle: every fourth write-back decides, on the last four.
    assertFalse(cache.isHolding());
  }
}
