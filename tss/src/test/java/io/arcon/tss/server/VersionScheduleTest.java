package io.arcon.tss.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link VersionSchedule}'s arithmetic against walking the schedule one version at a time. */
class VersionScheduleTest {
  private static final Instant AT = Instant.parse("2026-12-02T13:00:00Z");

  /** The oracle: the first version at or after {@code time}, found by walking the schedule. */
  private static Instant walkToFirstAtOrAfter(VersionSchedule schedule, Instant time) {
    for (Instant v = schedule.first(); v != null; v = schedule.next(v)) {
      if (!v.isBefore(time)) {
        return v;
      }
    }
    return null;
  }

  private static Instant walkToLast(VersionSchedule schedule) {
    Instant last = null;
    for (Instant v = schedule.first(); v != null; v = schedule.next(v)) {
      last = v;
    }
    return last;
  }

  @Test
  void firstAtOrAfterAndLastMatchAWalkOfTheSchedule() {
    Random random = new Random(13);
    for (int i = 0; i < 500; i++) {
      Duration every =
          random.nextInt(5) == 0 ? null : Duration.ofMillis(1 + random.nextInt(90_000));
      Instant until =
          every == null || random.nextBoolean() ? AT.plusMillis(random.nextInt(2_000_000)) : null;
      if (every != null && until == null) {
        // Unbounded: the walk has no end, so compare only times inside a bounded prefix.
        VersionSchedule schedule = new VersionSchedule(AT, every, null);
        VersionSchedule prefix = new VersionSchedule(AT, every, AT.plusMillis(3_000_000));
        Instant time = AT.plusMillis(random.nextInt(2_000_000) - 100_000);
        assertEquals(walkToFirstAtOrAfter(prefix, time), schedule.firstAtOrAfter(time), "" + i);
        assertEquals(null, schedule.last());
        continue;
      }
      VersionSchedule schedule = new VersionSchedule(AT, every, until);
      Instant time = AT.plusMillis(random.nextInt(2_200_000) - 100_000);
      assertEquals(
          walkToFirstAtOrAfter(schedule, time),
          schedule.firstAtOrAfter(time),
          "every " + every + " until " + until + " time " + time);
      assertEquals(walkToLast(schedule), schedule.last(), "every " + every + " until " + until);
      if (every != null) {
        Instant onAVersion = AT.plus(every.multipliedBy(random.nextInt(20)));
        assertEquals(
            walkToFirstAtOrAfter(schedule, onAVersion), schedule.firstAtOrAfter(onAVersion));
      }
    }
  }
}
