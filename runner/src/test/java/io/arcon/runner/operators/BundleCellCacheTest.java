package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class BundleCellCacheTest {
  private static byte[] key(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  private static void read(BundleCellCache.Entry<String, String> entry, String value) {
    entry.read = true;
    entry.value = value;
  }

  @Test
  void aCellIsHeldOnceAndWrittenBackInTheOrderItWasReadThenTheCacheIsEmpty() {
    BundleCellCache<String, String> cache = new BundleCellCache<>();
    BundleCellCache.Entry<String, String> a = cache.entry(key("a"), null, "a");
    assertFalse(a.read, "a new entry is read from the cell by the caller");
    read(a, "a1");
    a.eventTime = new Instant(1);
    read(cache.entry(key("b"), null, "b"), "b1");
    // Equal bytes in another array, not right after itself: found by hash.
    BundleCellCache.Entry<String, String> again = cache.entry(key("a"), null, "a");
    assertSame(a, again);
    again.value = "a2";
    again.eventTime = new Instant(7);
    // Read by no one: an element that failed before reading its cell writes nothing back.
    cache.entry(key("c"), null, "c");

    List<String> written = new ArrayList<>();
    cache.writeBack(
        e ->
            written.add(
                e.key
                    + "="
                    + e.value
                    + "@"
                    + (e.eventTime == null ? "-" : e.eventTime.getMillis())));
    assertEquals(List.of("a=a2@7", "b=b1@-"), written);
    List<String> none = new ArrayList<>();
    cache.writeBack(e -> none.add(e.key));
    assertEquals(List.of(), none, "the write-back emptied the cache");
    assertFalse(cache.entry(key("a"), null, "a").read, "a written-back cell is read again");
  }

  @Test
  void aKeysWindowsAreCellsOfTheirOwn() {
    BundleCellCache<String, String> cache = new BundleCellCache<>();
    IntervalWindow first = new IntervalWindow(new Instant(0), new Instant(10));
    IntervalWindow second = new IntervalWindow(new Instant(10), new Instant(20));
    BundleCellCache.Entry<String, String> inFirst = cache.entry(key("a"), first, "a");
    BundleCellCache.Entry<String, String> inSecond = cache.entry(key("a"), second, "a");
    BundleCellCache.Entry<String, String> perKey = cache.entry(key("a"), null, "a");
    assertNotSame(inFirst, inSecond);
    assertNotSame(inFirst, perKey);
    assertSame(
        inFirst, cache.entry(key("a"), new IntervalWindow(new Instant(0), new Instant(10)), "a"));
    assertNotSame(inFirst, cache.entry(key("b"), first, "b"));
  }

  @Test
  void cellsThatDoNotComeBackAreNotHeldUntilAProbeBundleSeesThemComeBack() {
    BundleCellCache<String, String> cache = new BundleCellCache<>();
    assertTrue(cache.isHolding());
    // A bundle of distinct keys: no element finds its cell held.
    for (int i = 0; i < 100; i++) {
      assertNotNull(cache.entry(key("k" + i), null, "k" + i));
    }
    cache.writeBack(e -> {});
    assertFalse(cache.isHolding());
    // Not held: the caller writes; after PROBE_EVERY - 1 such bundles still not held.
    for (int bundle = 1; bundle < BundleRepeats.PROBE_EVERY; bundle++) {
      for (int i = 0; i < 100; i++) {
        assertNull(cache.entry(key("k" + i), null, "k" + i));
      }
      cache.writeBack(e -> {});
      assertFalse(cache.isHolding(), "bundle " + bundle);
    }
    for (int i = 0; i < 100; i++) {
      cache.entry(key("k" + i), null, "k" + i);
    }
    cache.writeBack(e -> {});
    assertTrue(cache.isHolding(), "the probe bundle");
    // The probe sees one hot key: three elements in four find it held, so holding goes on.
    for (int i = 0; i < 100; i++) {
      String k = i % 4 == 0 ? "cold" + i : "hot";
      cache.entry(key(k), null, k);
    }
    cache.writeBack(e -> {});
    assertTrue(cache.isHolding());
  }

  @Test
  void bundlesShorterThanTheSampleAreJudgedTogether() {
    BundleCellCache<String, String> cache = new BundleCellCache<>();
    for (int bundle = 0; bundle < 3; bundle++) {
      for (int i = 0; i < BundleRepeats.MIN_SAMPLE / 4; i++) {
        cache.entry(key("k" + bundle + "-" + i), null, "k");
      }
      cache.writeBack(e -> {});
      assertTrue(cache.isHolding(), "too few elements yet, bundle " + bundle);
    }
    for (int i = 0; i < BundleRepeats.MIN_SAMPLE / 4; i++) {
      cache.entry(key("k3-" + i), null, "k");
    }
    cache.writeBack(e -> {});
    // The fourth write-back decides, on the 64 distinct cells of the last four.
    assertFalse(cache.isHolding());
  }
}
