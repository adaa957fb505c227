package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.CloseableIterator;
import io.arcon.state.KeyBytes;
import io.arcon.state.SnapshotHandle;
import io.arcon.state.StateBackend;
import io.arcon.state.StateEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.values.CausedByDrain;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@link TimerStore} against the same expectations: the tables on each engine and the heap
 * engine's columns ({@link HeapTimerStore}, store {@value #HEAP_OBJECTS}).
 */
class TimerStoreTest {
  static final String HEAP_OBJECTS = "heap-objects";
  private static final StateNamespace W1 =
      StateNamespaces.window(
          IntervalWindow.getCoder(), new IntervalWindow(new Instant(0), new Instant(100)));
  private static final StateNamespace W2 =
      StateNamespaces.window(
          IntervalWindow.getCoder(), new IntervalWindow(new Instant(100), new Instant(200)));
  private static final byte[] KEY_A = "a".getBytes(StandardCharsets.UTF_8);
  private static final byte[] KEY_B = "b".getBytes(StandardCharsets.UTF_8);

  @TempDir Path tmp;
  private StateBackend backend;
  private TimerStore store;

  /** The table store on every engine, and the heap engine's object store. */
  static List<String> stores() {
    List<String> stores = new ArrayList<>(TestBackends.engines());
    stores.add(HEAP_OBJECTS);
    return stores;
  }

  private void open(String kind) {
    backend = TestBackends.open(kind.equals(HEAP_OBJECTS) ? "heap" : kind, tmp.resolve("db"));
    store = storeOver(kind, backend);
  }

  private static TimerStore storeOver(String kind, StateBackend backend) {
    BackendTimerStore tables = new BackendTimerStore(backend, IntervalWindow.getCoder());
    return kind.equals(HEAP_OBJECTS) ? new HeapTimerStore(tables) : tables;
  }

  @AfterEach
  void close() {
    if (backend != null) {
      backend.close();
    }
  }

  private static TimerData eventTimer(String id, StateNamespace ns, long ts, long outputTs) {
    return TimerData.of(id, "", ns, new Instant(ts), new Instant(outputTs), TimeDomain.EVENT_TIME);
  }

  private List<String> drain(TimeDomain domain, Instant bound) {
    List<String> fired = new ArrayList<>();
    KeyedTimer t;
    while ((t = store.pollFirstBefore(domain, bound)) != null) {
      fired.add(
          new String(t.encodedKey(), StandardCharsets.UTF_8)
              + ":"
              + t.timer().getTimerId()
              + "@"
              + t.timer().getTimestamp().getMillis());
    }
    return fired;
  }

  @ParameterizedTest
  @MethodSource("stores")
  void pollsInTimestampOrderStrictlyBeforeTheBound(String engine) {
    open(engine);
    store.setTimer(KEY_B, eventTimer("t3", W1, 30, 30));
    store.setTimer(KEY_A, eventTimer("t1", W1, 10, 10));
    store.setTimer(KEY_A, eventTimer("t2", W2, 20, 20));
    store.setTimer(KEY_B, eventTimer("neg", W2, -5, -5));

    assertEquals(new Instant(-5), store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertEquals(List.of("b:neg@-5", "a:t1@10"), drain(TimeDomain.EVENT_TIME, new Instant(20)));
    assertEquals(new Instant(20), store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertEquals(
        List.of("a:t2@20", "b:t3@30"),
        drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
    assertNull(store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertNull(store.pollFirstBefore(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
    assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, store.minimumOutputTimestamp());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aTimerSetBehindEarlierPollsStillFires(String engine) {
    open(engine);
    store.setTimer(KEY_A, eventTimer("late", W1, 100, 100));
    assertTrue(drain(TimeDomain.EVENT_TIME, new Instant(50)).isEmpty());
    assertEquals(new Instant(100), store.nextTimestamp(TimeDomain.EVENT_TIME));
    store.setTimer(KEY_B, eventTimer("early", W1, 10, 10));
    assertEquals(new Instant(10), store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertEquals(List.of("b:early@10"), drain(TimeDomain.EVENT_TIME, new Instant(50)));
    assertEquals(
        List.of("a:late@100"), drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
    assertNull(store.nextTimestamp(TimeDomain.EVENT_TIME));
    store.setTimer(KEY_B, eventTimer("again", W1, -1, -1));
    assertEquals(new Instant(-1), store.nextTimestamp(TimeDomain.EVENT_TIME));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void resettingAnUnchangedTimerKeepsExactlyOneEntry(String engine) {
    open(engine);
    for (int i = 0; i < 3; i++) {
      store.setTimer(KEY_A, eventTimer("gc", W1, 99, 99));
    }
    KeyedTimer fired = store.pollFirstBefore(TimeDomain.EVENT_TIME, new Instant(100));
    assertArrayEquals(KEY_A, fired.encodedKey());
    assertEquals(eventTimer("gc", W1, 99, 99), fired.timer());
    assertEquals(List.of(), drain(TimeDomain.EVENT_TIME, new Instant(100)));
    assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, store.minimumOutputTimestamp());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void equalTimestampsFireInKeyThenIdentityOrder(String engine) {
    open(engine);
    store.setTimer(KEY_B, eventTimer("x", W1, 10, 10));
    store.setTimer(KEY_A, eventTimer("y", W1, 10, 10));
    store.setTimer(KEY_A, eventTimer("x", W1, 10, 10));
    assertEquals(
        List.of("a:x@10", "a:y@10", "b:x@10"), drain(TimeDomain.EVENT_TIME, new Instant(11)));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void settingATimerAgainReplacesIt(String engine) {
    open(engine);
    store.setTimer(KEY_A, eventTimer("t", W1, 50, 40));
    store.setTimer(KEY_A, eventTimer("t", W1, 15, 12));
    assertEquals(new Instant(15), store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertEquals(new Instant(12), store.minimumOutputTimestamp());
    assertEquals(new Instant(15), store.getTimer(KEY_A, W1, "t", "").getTimestamp());

    // Same identity in another domain moves it out of event time entirely.
    store.setTimer(
        KEY_A,
        TimerData.of("t", "", W1, new Instant(70), new Instant(60), TimeDomain.PROCESSING_TIME));
    assertNull(store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertEquals(new Instant(70), store.nextTimestamp(TimeDomain.PROCESSING_TIME));
    assertEquals(new Instant(60), store.minimumOutputTimestamp());
    assertEquals(List.of("a:t@70"), drain(TimeDomain.PROCESSING_TIME, new Instant(71)));
    assertTrue(drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE).isEmpty());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void deleteRemovesOnlyTheNamedTimer(String engine) {
    open(engine);
    store.setTimer(KEY_A, eventTimer("t", W1, 10, 5));
    store.setTimer(KEY_A, eventTimer("t", W2, 20, 20));
    store.setTimer(KEY_B, eventTimer("t", W1, 30, 30));
    store.setTimer(
        KEY_A,
        TimerData.of("t", "family", W1, new Instant(40), new Instant(40), TimeDomain.EVENT_TIME));

    store.deleteTimer(KEY_A, W1, "t", "", TimeDomain.EVENT_TIME);
    assertEquals(new Instant(20), store.minimumOutputTimestamp());
    store.deleteTimer(KEY_A, W1, "missing", "", TimeDomain.EVENT_TIME);
    // A deleted TimerData deletes too.
    store.setTimer(KEY_B, eventTimer("t", W1, 30, 30).deleted());
    assertEquals(
        List.of("a:t@20", "a:t@40"),
        drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void minimumOutputTimestampSpansAllDomains(String engine) {
    open(engine);
    store.setTimer(KEY_A, eventTimer("e", W1, 100, 90));
    store.setTimer(
        KEY_B,
        TimerData.of("p", "", W1, new Instant(500), new Instant(80), TimeDomain.PROCESSING_TIME));
    store.setTimer(
        KEY_B,
        TimerData.of(
            "s",
            "",
            W1,
            new Instant(600),
            new Instant(85),
            TimeDomain.SYNCHRONIZED_PROCESSING_TIME));
    assertEquals(new Instant(80), store.minimumOutputTimestamp());
    assertEquals(List.of("b:p@500"), drain(TimeDomain.PROCESSING_TIME, new Instant(1_000)));
    assertEquals(new Instant(85), store.minimumOutputTimestamp());
    assertEquals(
        List.of("b:s@600"), drain(TimeDomain.SYNCHRONIZED_PROCESSING_TIME, new Instant(1_000)));
    assertEquals(new Instant(90), store.minimumOutputTimestamp());
    KeyedTimer last = store.pollFirstBefore(TimeDomain.EVENT_TIME, new Instant(101));
    assertArrayEquals(KEY_A, last.encodedKey());
    assertEquals(W1, last.timer().getNamespace());
    assertEquals(new Instant(90), last.timer().getOutputTimestamp());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void eventTimersHeldAtTheirFiringTimeOrNotAtAllFireInOneOrder(String engine) {
    open(engine);
    // Same timestamp, different index ranges: the order is by identity across them.
    store.setTimer(KEY_B, eventTimer("x", W1, 50, 50));
    store.setTimer(
        KEY_A,
        TimerData.of(
            "x",
            "",
            W1,
            new Instant(50),
            BoundedWindow.TIMESTAMP_MAX_VALUE,
            TimeDomain.EVENT_TIME));
    store.setTimer(KEY_A, eventTimer("y", W1, 60, 60));
    store.setTimer(KEY_B, eventTimer("y", W1, 40, 10));
    assertEquals(new Instant(10), store.minimumOutputTimestamp());
    assertEquals(new Instant(40), store.nextTimestamp(TimeDomain.EVENT_TIME));
    assertEquals(List.of("b:y@40"), drain(TimeDomain.EVENT_TIME, new Instant(41)));
    // Only timers held at their firing time remain: the earliest of them holds.
    assertEquals(new Instant(50), store.minimumOutputTimestamp());
    assertEquals(
        List.of("a:x@50", "b:x@50", "a:y@60"),
        drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
    assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, store.minimumOutputTimestamp());
    assertEquals(0, rows(backend));
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void anEventTimerHeldAtItsFiringTimeIsTwoRows(String engine) {
    open(engine);
    store.setTimer(KEY_A, eventTimer("e", W1, 100, 100));
    assertEquals(2, rows(backend));
    store.setTimer(KEY_A, eventTimer("e", W1, 100, 90));
    assertEquals(3, rows(backend));
    store.setTimer(KEY_A, eventTimer("e", W1, 100, 100));
    assertEquals(2, rows(backend));
    assertEquals(new Instant(100), store.minimumOutputTimestamp());
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void refusesTimersInTheEarlierLayout(String engine) {
    open(engine);
    backend.table(BackendTimerStore.LEGACY_OUTPUT_INDEX_TABLE).put(new byte[] {1}, new byte[0]);
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> new BackendTimerStore(backend, IntervalWindow.getCoder()));
    assertTrue(refused.getMessage().contains("earlier ArconRunner"), refused.getMessage());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void keyedTimerInternalsUsesTheCurrentKeyAndClocks(String engine) {
    open(engine);
    BackendStateInternals<String> state =
        new BackendStateInternals<>(backend, StringUtf8Coder.of());
    KeyedTimerInternals timers = new KeyedTimerInternals(store, state);
    assertThrows(
        IllegalStateException.class,
        () -> timers.setTimer(W1, "t", "", new Instant(1), new Instant(1), TimeDomain.EVENT_TIME));

    state.setKey("a");
    timers.setTimer(W1, "t", "", new Instant(10), new Instant(10), TimeDomain.EVENT_TIME);
    state.setKey("b");
    timers.setTimer(eventTimer("t", W1, 20, 20));
    timers.setTimer(W2, "u", "", new Instant(5), new Instant(5), TimeDomain.EVENT_TIME);
    timers.deleteTimer(W2, "u", "");
    state.setKey("a");
    timers.deleteTimer(eventTimer("t", W1, 10, 10));
    assertEquals(List.of("b:t@20"), drain(TimeDomain.EVENT_TIME, new Instant(100)));

    assertNull(timers.currentOutputWatermarkTime());
    timers.setInputWatermark(new Instant(1));
    timers.setOutputWatermark(new Instant(2));
    timers.setProcessingTime(new Instant(3));
    timers.setSynchronizedProcessingTime(new Instant(4));
    assertEquals(new Instant(1), timers.currentInputWatermarkTime());
    assertEquals(new Instant(2), timers.currentOutputWatermarkTime());
    assertEquals(new Instant(3), timers.currentProcessingTime());
    assertEquals(new Instant(4), timers.currentSynchronizedProcessingTime());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void processingTimeFollowsTheClockWhenAskedUntilFixedByATimerFiring(String engine) {
    followsTheClockWhenAskedUntilFixed(
        engine,
        KeyedTimerInternals::followProcessingClock,
        KeyedTimerInternals::setProcessingTime,
        KeyedTimerInternals::currentProcessingTime);
  }

  @ParameterizedTest
  @MethodSource("stores")
  void synchronizedTimeFollowsItsClockWhenAskedUntilFixed(String engine) {
    followsTheClockWhenAskedUntilFixed(
        engine,
        KeyedTimerInternals::followSynchronizedClock,
        KeyedTimerInternals::setSynchronizedProcessingTime,
        KeyedTimerInternals::currentSynchronizedProcessingTime);
  }

  /**
   * A time that follows a clock reads it only when asked; fixing it (a timer firing, a watermark)
   * stops the reads until the clock is followed again.
   */
  private void followsTheClockWhenAskedUntilFixed(
      String engine,
      BiConsumer<KeyedTimerInternals, LongSupplier> follow,
      BiConsumer<KeyedTimerInternals, Instant> fix,
      Function<KeyedTimerInternals, Instant> current) {
    open(engine);
    BackendStateInternals<String> state =
        new BackendStateInternals<>(backend, StringUtf8Coder.of());
    KeyedTimerInternals timers = new KeyedTimerInternals(store, state);
    long[] clock = {100};
    int[] reads = {0};
    follow.accept(
        timers,
        () -> {
          reads[0]++;
          return clock[0];
        });
    assertEquals(0, reads[0], "following the clock must not read it");
    assertEquals(new Instant(100), current.apply(timers));
    clock[0] = 250;
    assertEquals(new Instant(250), current.apply(timers));
    assertEquals(2, reads[0]);

    fix.accept(timers, new Instant(200));
    clock[0] = 300;
    assertEquals(new Instant(200), current.apply(timers));
    assertEquals(2, reads[0]);
    follow.accept(timers, () -> clock[0]);
    assertEquals(new Instant(300), current.apply(timers));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void answersLikeAReferenceModelUnderRandomOperations(String kind) {
    compareWithAReferenceModel(kind, 20, 20_000, 0);
  }

  /**
   * The heap store with more keys (its identity table grows to a thousand slots and shifts runs
   * back on removals) and the hold first asked for halfway (it tracks output timestamps only from
   * then on).
   */
  @Test
  void theObjectStoreAnswersLikeAReferenceModelWithTheHoldAskedForLate() {
    compareWithAReferenceModel(HEAP_OBJECTS, 60, 16_000, 8_000);
  }

  private void compareWithAReferenceModel(String kind, int keys, int operations, int holdFrom) {
    open(kind);
    Random random = new Random(42 + keys);
    TimerIdentities identities = new TimerIdentities();
    // identity bytes -> (encoded key, timer); ties fire in identity-byte order.
    Map<List<Byte>, KeyedTimer> model = new HashMap<>();
    StateNamespace[] namespaces = {
      W1,
      W2,
      StateNamespaces.global(),
      StateNamespaces.windowAndTrigger(
          IntervalWindow.getCoder(), new IntervalWindow(new Instant(-50), new Instant(70)), 37)
    };
    TimeDomain[] domains = TimeDomain.values();
    for (int op = 0; op < operations; op++) {
      byte[] key = ("k" + random.nextInt(keys)).getBytes(StandardCharsets.UTF_8);
      StateNamespace namespace = namespaces[random.nextInt(namespaces.length)];
      String family = random.nextBoolean() ? "" : "f";
      String id = "t" + random.nextInt(3);
      List<Byte> identity = bytes(identities.of(key, namespace, family, id));
      int choice = random.nextInt(100);
      if (choice < 50) {
        long ts = random.nextInt(1_000) - 100;
        // Held at the firing time (Beam's default for event time), held earlier, or not held:
        // event-time timers of the first kind and of the others live in different index ranges.
        int hold = random.nextInt(4);
        Instant outputTs =
            hold == 0
                ? new Instant(ts)
                : hold == 1
                    ? BoundedWindow.TIMESTAMP_MAX_VALUE
                    : new Instant(ts - random.nextInt(50));
        TimerData timer =
            TimerData.of(
                id,
                family,
                namespace,
                new Instant(ts),
                outputTs,
                domains[random.nextInt(domains.length)],
                random.nextInt(8) == 0 ? CausedByDrain.CAUSED_BY_DRAIN : CausedByDrain.NORMAL);
        store.setTimer(key, timer);
        model.put(identity, new KeyedTimer(key, timer));
      } else if (choice < 60) {
        store.deleteTimer(key, namespace, id, family, TimeDomain.EVENT_TIME);
        model.remove(identity);
      } else if (choice < 65) {
        KeyedTimer existing = model.remove(identity);
        store.setTimer(
            key,
            existing != null
                ? existing.timer().deleted()
                : TimerData.of(
                        id,
                        family,
                        namespace,
                        new Instant(0),
                        new Instant(0),
                        TimeDomain.EVENT_TIME)
                    .deleted());
      } else if (choice < 90) {
        TimeDomain domain = domains[random.nextInt(domains.length)];
        Instant bound = new Instant(random.nextInt(1_000) - 100);
        KeyedTimer expected = firstBefore(model, domain, bound);
        KeyedTimer polled = store.pollFirstBefore(domain, bound);
        if (expected == null) {
          assertNull(polled, "op " + op);
        } else {
          assertArrayEquals(expected.encodedKey(), polled.encodedKey(), "op " + op);
          assertEquals(expected.timer(), polled.timer(), "op " + op);
          model.remove(
              bytes(
                  identities.of(
                      polled.encodedKey(),
                      polled.timer().getNamespace(),
                      polled.timer().getTimerFamilyId(),
                      polled.timer().getTimerId())));
        }
      } else if (choice < 95) {
        KeyedTimer expected = model.get(identity);
        assertEquals(
            expected == null ? null : expected.timer(),
            store.getTimer(key, namespace, id, family),
            "op " + op);
      } else {
        // A snapshot's preparation and its end change nothing a reader sees.
        store.beforeSnapshot();
        store.afterSnapshot();
      }
      for (TimeDomain domain : domains) {
        KeyedTimer first = firstBefore(model, domain, BoundedWindow.TIMESTAMP_MAX_VALUE);
        assertEquals(
            first == null ? null : first.timer().getTimestamp(),
            store.nextTimestamp(domain),
            "op " + op + ", " + domain);
      }
      if (op >= holdFrom) {
        assertEquals(
            model.values().stream()
                .map(t -> t.timer().getOutputTimestamp())
                .min(Comparator.naturalOrder())
                .orElse(BoundedWindow.TIMESTAMP_MAX_VALUE),
            store.minimumOutputTimestamp(),
            "op " + op);
      }
    }
  }

  private static KeyedTimer firstBefore(
      Map<List<Byte>, KeyedTimer> model, TimeDomain domain, Instant bound) {
    TimerIdentities identities = new TimerIdentities();
    KeyedTimer first = null;
    byte[] firstIdentity = null;
    for (KeyedTimer candidate : model.values()) {
      TimerData timer = candidate.timer();
      if (timer.getDomain() != domain || !timer.getTimestamp().isBefore(bound)) {
        continue;
      }
      byte[] identity =
          identities.of(
              candidate.encodedKey(),
              timer.getNamespace(),
              timer.getTimerFamilyId(),
              timer.getTimerId());
      if (first == null
          || timer.getTimestamp().isBefore(first.timer().getTimestamp())
          || (timer.getTimestamp().equals(first.timer().getTimestamp())
              && KeyBytes.compare(identity, firstIdentity) < 0)) {
        first = candidate;
        firstIdentity = identity;
      }
    }
    return first;
  }

  private static List<Byte> bytes(byte[] array) {
    List<Byte> list = new ArrayList<>(array.length);
    for (byte b : array) {
      list.add(b);
    }
    return list;
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aRestoredBackendHasExactlyTheTimersOfItsSnapshot(String kind) throws Exception {
    open(kind);
    store.setTimer(KEY_A, eventTimer("e", W1, 10, 8));
    store.setTimer(KEY_B, eventTimer("e", W2, 10, 10));
    store.setTimer(
        KEY_A,
        TimerData.of("p", "", W1, new Instant(500), new Instant(7), TimeDomain.PROCESSING_TIME));
    store.setTimer(KEY_B, eventTimer("gone", W1, 5, 5));
    store.deleteTimer(KEY_B, W1, "gone", "", TimeDomain.EVENT_TIME);

    store.beforeSnapshot();
    SnapshotHandle handle = backend.snapshot(1, tmp.resolve("snapshot-1"));
    store.afterSnapshot();
    if (kind.equals(HEAP_OBJECTS)) {
      // The tables held the timers for the snapshot only; the objects are the one live copy.
      assertEquals(0, rows(backend));
    }

    // Changes after the cut are not in the snapshot, and do not reach it later.
    store.setTimer(KEY_B, eventTimer("after", W1, 1, 1));
    store.deleteTimer(KEY_A, W1, "e", "", TimeDomain.EVENT_TIME);
    assertEquals(new Instant(1), store.minimumOutputTimestamp());

    try (StateBackend restored = TestBackends.open(backend.engine(), tmp.resolve("restored"))) {
      restored.restore(handle);
      TimerStore again = storeOver(kind, restored);
      if (kind.equals(HEAP_OBJECTS)) {
        assertEquals(0, rows(restored));
      }
      assertEquals(new Instant(7), again.minimumOutputTimestamp());
      assertEquals(new Instant(500), again.nextTimestamp(TimeDomain.PROCESSING_TIME));
      store = again;
      assertEquals(
          List.of("a:e@10", "b:e@10"),
          drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
      assertEquals(List.of("a:p@500"), drain(TimeDomain.PROCESSING_TIME, new Instant(501)));
      assertEquals(BoundedWindow.TIMESTAMP_MAX_VALUE, again.minimumOutputTimestamp());
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aSnapshotAfterAFailedOneHoldsNoTimerDeletedInBetween(String kind) throws Exception {
    open(kind);
    store.setTimer(KEY_A, eventTimer("kept", W1, 10, 10));
    store.setTimer(KEY_B, eventTimer("deleted", W1, 20, 20));
    // The snapshot this prepared failed: afterSnapshot never came.
    store.beforeSnapshot();
    store.deleteTimer(KEY_B, W1, "deleted", "", TimeDomain.EVENT_TIME);

    store.beforeSnapshot();
    SnapshotHandle handle = backend.snapshot(2, tmp.resolve("snapshot-2"));
    store.afterSnapshot();

    try (StateBackend restored = TestBackends.open(backend.engine(), tmp.resolve("restored"))) {
      restored.restore(handle);
      store = storeOver(kind, restored);
      assertEquals(
          List.of("a:kept@10"), drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE));
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void drainsThousandsOfTimersOfOneTimestampInIdentityOrder(String kind) {
    open(kind);
    TimerIdentities identities = new TimerIdentities();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(3));
    List<byte[]> expected = new ArrayList<>();
    for (int i : order) {
      // Keys of one length and a long common prefix: ties that their first bytes do not break.
      byte[] key = String.format("user-%05d", i).getBytes(StandardCharsets.UTF_8);
      store.setTimer(key, eventTimer("end", W1, 99, 99));
      if (i % 7 == 0) {
        store.deleteTimer(key, W1, "end", "", TimeDomain.EVENT_TIME);
      } else {
        expected.add(identities.of(key, W1, "", "end"));
      }
    }
    expected.sort(KeyBytes::compare);
    List<byte[]> fired = new ArrayList<>();
    KeyedTimer timer;
    while ((timer = store.pollFirstBefore(TimeDomain.EVENT_TIME, new Instant(100))) != null) {
      fired.add(identities.of(timer.encodedKey(), W1, "", "end"));
    }
    assertEquals(expected.size(), fired.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), fired.get(i), "timer " + i);
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void countsTheMemoryOfTimersTheBackendDoesNotHold(String kind) {
    open(kind);
    assertEquals(0, store.approximateSizeBytes());
    for (int i = 0; i < 100; i++) {
      store.setTimer(("key" + i).getBytes(StandardCharsets.UTF_8), eventTimer("t", W1, i, i));
    }
    long hundred = store.approximateSizeBytes();
    store.setTimer(KEY_A, eventTimer("t", W1, 5, 5));
    store.setTimer(KEY_A, eventTimer("t", W1, 6, 6)); // a replacement takes no more
    if (kind.equals(HEAP_OBJECTS)) {
      assertTrue(hundred >= 100 * 120, "100 timers take " + hundred + " bytes");
      assertTrue(store.approximateSizeBytes() > hundred);
      long hundredAndOne = store.approximateSizeBytes();
      store.deleteTimer(KEY_A, W1, "t", "", TimeDomain.EVENT_TIME);
      assertEquals(hundred, store.approximateSizeBytes());
      store.setTimer(KEY_A, eventTimer("t", W1, 7, 7));
      assertEquals(hundredAndOne, store.approximateSizeBytes());
    } else {
      // The timers are the backend's rows, counted in its own size.
      assertEquals(0, hundred);
    }
    drain(TimeDomain.EVENT_TIME, BoundedWindow.TIMESTAMP_MAX_VALUE);
    assertEquals(0, store.approximateSizeBytes());
  }

  /** Rows in the backend's three timer tables. */
  private static int rows(StateBackend backend) {
    int rows = 0;
    for (String table :
        List.of(
            BackendTimerStore.TIMERS_TABLE,
            BackendTimerStore.TIMER_INDEX_TABLE,
            BackendTimerStore.HOLD_INDEX_TABLE)) {
      try (CloseableIterator<StateEntry> it = backend.table(table).iterator()) {
        while (it.hasNext()) {
          it.next();
          rows++;
        }
      }
    }
    return rows;
  }
}
