package io.arcon.examples.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class SimulatedEventsTest {

  static final Instant START = Instant.parse("2026-12-02T13:00:00Z");
  static final List<String> USERS = List.of("alice", "bob", "carol", "dave", "erin");
  static final long SPACING = 500;
  static final long MAX_DELAY = 5_000;

  static SimulatedEvents events(long seed) {
    return new SimulatedEvents(
        START, USERS, Duration.millis(SPACING), Duration.millis(MAX_DELAY), seed, 10, 200);
  }

  @Test
  void sameSeedGivesTheSameEventsAndAnotherSeedOthers() {
    SimulatedEvents a = events(7);
    SimulatedEvents b = events(7);
    SimulatedEvents other = events(8);
    List<String> usersOfA = new ArrayList<>();
    List<String> usersOfOther = new ArrayList<>();
    for (long i = 0; i < 5_000; i++) {
      assertEquals(a.event(i), b.event(i), "event " + i);
      assertEquals(a.eventTime(i), b.eventTime(i), "time of event " + i);
      usersOfA.add(a.user(i));
      usersOfOther.add(other.user(i));
    }
    assertNotEquals(usersOfA, usersOfOther);
  }

  @Test
  void usersAndValuesComeFromTheirRanges() {
    SimulatedEvents events = events(1);
    Set<String> users = new HashSet<>();
    Set<Long> values = new HashSet<>();
    for (long i = 0; i < 20_000; i++) {
      users.add(events.user(i));
      long value = events.value(i);
      assertTrue(value >= 10 && value <= 200, "value of event " + i + ": " + value);
      values.add(value);
    }
    assertEquals(Set.copyOf(USERS), users);
    // Both ends of the range are drawn, not just the inside.
    assertTrue(values.contains(10L) && values.contains(200L), "values " + values);
  }

  @Test
  void eventsAreOutOfOrderByAtMostTheMaximumDelayAndNeverBeforeTheStart() {
    SimulatedEvents events = events(1);
    long latestSoFar = START.getMillis();
    long largestDisorder = 0;
    for (long i = 0; i < 50_000; i++) {
      long time = events.eventTime(i).getMillis();
      assertTrue(time >= START.getMillis(), "event " + i + " before the start: " + time);
      assertTrue(
          time <= events.emittedAt(i).getMillis(), "event " + i + " happens after its emission");
      // The largest amount by which an earlier-emitted event is later than this one.
      largestDisorder = Math.max(largestDisorder, latestSoFar - time);
      latestSoFar = Math.max(latestSoFar, time);
    }
    assertTrue(largestDisorder <= MAX_DELAY, "disorder " + largestDisorder + " ms");
    // Out of order by design, by more than neighbours swapping.
    assertTrue(largestDisorder > 4 * SPACING, "disorder only " + largestDisorder + " ms");
  }

  @Test
  void watermarkNeverPassesAnEventStillToCome() {
    SimulatedEvents events = events(3);
    int checked = 20_000;
    // Beyond this many more indexes an event cannot be earlier than any event up to `checked`
    // plus its delay, so the suffix minimum over this window is the minimum over all the future.
    int horizon = (int) (MAX_DELAY / SPACING) + 2;
    long[] suffixMin = new long[checked + horizon + 1];
    suffixMin[checked + horizon] = Long.MAX_VALUE;
    for (int i = checked + horizon - 1; i >= 0; i--) {
      suffixMin[i] = Math.min(suffixMin[i + 1], events.eventTime(i).getMillis());
    }
    Instant previous = null;
    for (int next = 0; next < checked; next++) {
      Instant watermark = events.watermarkBefore(next);
      assertTrue(
          watermark.getMillis() <= suffixMin[next],
          "watermark " + watermark + " before event " + next + " passes a later event");
      if (previous != null) {
        assertTrue(!watermark.isBefore(previous), "watermark went back at " + next);
      }
      previous = watermark;
    }
    // It trails the simulated clock by the maximum delay, not more.
    assertEquals(
        events.emittedAt(checked).getMillis() - MAX_DELAY,
        events.watermarkBefore(checked).getMillis());
  }

  @Test
  void refusesBadParametersSayingWhatIsWrong() {
    Duration spacing = Duration.millis(SPACING);
    Duration delay = Duration.millis(MAX_DELAY);
    assertEquals(
        "users must name at least one user, e.g. alice,bob",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SimulatedEvents(START, List.of(), spacing, delay, 1, 1, 1))
            .getMessage());
    assertEquals(
        "users must be distinct, but bob appears twice in [alice, bob, bob]",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new SimulatedEvents(
                        START, List.of("alice", "bob", "bob"), spacing, delay, 1, 1, 1))
            .getMessage());
    assertEquals(
        "the event spacing must be positive, got 0 ms",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SimulatedEvents(START, USERS, Duration.ZERO, delay, 1, 1, 1))
            .getMessage());
    assertEquals(
        "the maximum event delay must not be negative, got -1 ms",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SimulatedEvents(START, USERS, spacing, Duration.millis(-1), 1, 1, 1))
            .getMessage());
    assertEquals(
        "the value range is empty: minimum 5 > maximum 4",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SimulatedEvents(START, USERS, spacing, delay, 1, 5, 4))
            .getMessage());
  }
}
