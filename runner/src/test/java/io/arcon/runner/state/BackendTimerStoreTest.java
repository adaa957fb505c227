package io.arcon.runner.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.state.StateBackend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.core.StateNamespace;
import org.apache.beam.runners.core.StateNamespaces;
import org.apache.beam.runners.core.TimerInternals.TimerData;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BackendTimerStoreTest {
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
  private BackendTimerStore store;

  private void open(String engine) {
    backend = TestBackends.open(engine, tmp.resolve("db"));
    store = new BackendTimerStore(backend, IntervalWindow.getCoder());
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void equalTimestampsFireInKeyThenIdentityOrder(String engine) {
    open(engine);
    store.setTimer(KEY_B, eventTimer("x", W1, 10, 10));
    store.setTimer(KEY_A, eventTimer("y", W1, 10, 10));
    store.setTimer(KEY_A, eventTimer("x", W1, 10, 10));
    assertEquals(
        List.of("a:x@10", "a:y@10", "b:x@10"), drain(TimeDomain.EVENT_TIME, new Instant(11)));
  }

  @ParameterizedTest
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
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
  @MethodSource("io.arcon.runner.state.TestBackends#engines")
  void processingTimeFollowsTheClockWhenAskedUntilFixedByATimerFiring(String engine) {
    open(engine);
    BackendStateInternals<String> state =
        new BackendStateInternals<>(backend, StringUtf8Coder.of());
    KeyedTimerInternals timers = new KeyedTimerInternals(store, state);
    long[] clock = {100};
    int[] reads = {0};
    timers.followProcessingClock(
        () -> {
          reads[0]++;
          return clock[0];
        });
    assertEquals(0, reads[0], "following the clock must not read it");
    assertEquals(new Instant(100), timers.currentProcessingTime());
    clock[0] = 250;
    assertEquals(new Instant(250), timers.currentProcessingTime());
    assertEquals(2, reads[0]);

    // A timer firing fixes the time; the clock is not read until followed again.
    timers.setProcessingTime(new Instant(200));
    clock[0] = 300;
    assertEquals(new Instant(200), timers.currentProcessingTime());
    assertEquals(2, reads[0]);
    timers.followProcessingClock(() -> clock[0]);
    assertEquals(new Instant(300), timers.currentProcessingTime());
  }
}
