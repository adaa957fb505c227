package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link WindowHash} agrees with every window's {@code equals}, in its hash and its equality, and
 * spreads interval windows.
 */
class WindowHashTest {

  /** An interval window with one more field, as Nexmark's auction windows are. */
  static final class TaggedWindow extends IntervalWindow {
    final long tag;

    TaggedWindow(long start, long end, long tag) {
      super(new Instant(start), new Instant(end));
      this.tag = tag;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof TaggedWindow w && super.equals(w) && tag == w.tag;
    }

    @Override
    public int hashCode() {
      return Objects.hash(super.hashCode(), tag);
    }
  }

  @Test
  void equalWindowsHashAlike() {
    Random random = new Random(5);
    for (int i = 0; i < 10_000; i++) {
      long start = random.nextInt(1_000_000) - 500_000;
      long end = start + 1 + random.nextInt(10_000);
      long tag = random.nextInt(3);
      assertEquals(
          WindowHash.of(new IntervalWindow(new Instant(start), new Instant(end))),
          WindowHash.of(new IntervalWindow(new Instant(start), new Instant(end))));
      assertEquals(
          WindowHash.of(new TaggedWindow(start, end, tag)),
          WindowHash.of(new TaggedWindow(start, end, tag)));
    }
    assertEquals(WindowHash.of(GlobalWindow.INSTANCE), WindowHash.of(GlobalWindow.INSTANCE));
    BoundedWindow other =
        new BoundedWindow() {
          @Override
          public Instant maxTimestamp() {
            return new Instant(7);
          }
        };
    assertEquals(other.hashCode(), WindowHash.of(other));
  }

  @Test
  void sameAgreesWithEquals() {
    Random random = new Random(11);
    for (int i = 0; i < 10_000; i++) {
      long start = random.nextInt(200) - 100;
      long end = start + 1 + random.nextInt(3);
      BoundedWindow a = window(random, start, end);
      BoundedWindow b = window(random, start + random.nextInt(2), end + random.nextInt(2));
      assertEquals(a.equals(b), WindowHash.same(a, b), a + " and " + b);
      assertEquals(b.equals(a), WindowHash.same(b, a), b + " and " + a);
      assertEquals(true, WindowHash.same(a, a));
      assertEquals(false, WindowHash.same(a, null));
      assertEquals(false, WindowHash.same(null, a));
    }
    assertEquals(true, WindowHash.same(null, null));
    assertEquals(true, WindowHash.same(GlobalWindow.INSTANCE, GlobalWindow.INSTANCE));
    assertEquals(
        false,
        WindowHash.same(GlobalWindow.INSTANCE, new IntervalWindow(new Instant(0), new Instant(1))));
  }

  /** A plain interval window or, with the same bounds, one with a tag of 0 or 1. */
  private static BoundedWindow window(Random random, long start, long end) {
    return random.nextBoolean()
        ? new IntervalWindow(new Instant(start), new Instant(end))
        : new TaggedWindow(start, end, random.nextInt(2));
  }

  @Test
  void intervalWindowsOfOneSizeSpreadOverTheTable() {
    // Fixed and sliding windows differ in their bounds by a constant step; the low bits a hash
    // table uses must still differ.
    Set<Integer> buckets = new HashSet<>();
    for (long start = 0; start < 1024 * 60_000L; start += 60_000) {
      int h = WindowHash.of(new IntervalWindow(new Instant(start), new Instant(start + 60_000)));
      buckets.add((h ^ (h >>> 16)) & 1023);
    }
    assertNotEquals(1, buckets.size());
    assertEquals(true, buckets.size() > 600, "buckets used: " + buckets.size());
  }
}
