package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.arcon.state.StateBackend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Polls start after the part of the timer index known to be empty; timers set below that point
 * (earlier than timers already fired, or below an empty poll's bound) must still fire first.
 */
class TimerPollFromEmptyPrefixTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb", "lmdb"})
  void timersSetBelowTheFiredOnesStillFireInOrder(String engine) {
    StateBackend backend = TestBackends.open(engine, tmp.resolve(engine));
    try {
      BackendTimerStore store = new BackendTimerStore(backend, GlobalWindow.Coder.INSTANCE);
      set(store, "k1", "t", 50);
      set(store, "k2", "t", 60);
      assertEquals("k1@50", poll(store, 1000));
      // Below the fired timer, then below an empty poll's bound.
      set(store, "k3", "t", 10);
      assertEquals("k3@10", poll(store, 1000));
      assertEquals("k2@60", poll(store, 1000));
      assertNull(poll(store, 1000));
      set(store, "k4", "t", 500);
      set(store, "k5", "t", 5);
      assertEquals("k5@5", poll(store, 1000));
      assertEquals("k4@500", poll(store, 1000));
      assertNull(poll(store, 1000));

      // Random interleaving of sets and polls against a model.
      Random random = new Random(7);
      TreeMap<String, Long> model = new TreeMap<>();
      for (int step = 0; step < 2000; step++) {
        if (random.nextInt(3) > 0) {
          String key = "r" + random.nextInt(200);
          long ts = random.nextInt(10_000);
          set(store, key, "t", ts);
          model.put(key, ts);
        } else {
          long bound = random.nextInt(10_000);
          String polled = poll(store, bound);
          String expected = firstBefore(model, bound);
          assertEquals(expected, polled, "step " + step);
          if (expected != null) {
            model.remove(expected.substring(0, expected.indexOf('@')));
          }
        }
      }
    } finally {
      backend.dispose();
    }
  }

  /** The model's first timer strictly before {@code bound}, by timestamp then key bytes. */
  private static String firstBefore(TreeMap<String, Long> model, long bound) {
    List<String> candidates = new ArrayList<>();
    long best = Long.MAX_VALUE;
    for (var e : model.entrySet()) {
      if (e.getValue() < bound && e.getValue() <= best) {
        if (e.getValue() < best) {
          candidates.clear();
          best = e.getValue();
        }
        candidates.add(e.getKey());
      }
    }
    // Same timestamp: the index orders by identity bytes, i.e. length-prefixed key first.
    candidates.sort(
        (a, b) ->
            a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b));
    return candidates.isEmpty() ? null : candidates.get(0) + "@" + best;
  }

  private static void set(BackendTimerStore store, String key, String id, long ts) {
    store.setTimer(
        key.getBytes(StandardCharsets.UTF_8),
        TimerData.of(
            id,
            "",
            StateNamespaces.global(),
            new Instant(ts),
            new Instant(ts),
            TimeDomain.EVENT_TIME));
  }

  private static String poll(BackendTimerStore store, long bound) {
    KeyedTimer t = store.pollFirstBefore(TimeDomain.EVENT_TIME, new Instant(bound));
    return t == null
        ? null
        : new String(t.encodedKey(), StandardCharsets.UTF_8)
            + "@"
            + t.timer().getTimestamp().getMillis();
  }
}
