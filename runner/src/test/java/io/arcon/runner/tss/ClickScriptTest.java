package io.arcon.runner.tss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The oracle's own checks: late events are left out, and a mismatch is explained by arrivals. */
class ClickScriptTest {
  private static final long BASE = Instant.parse("2026-12-02T13:00:00Z").toEpochMilli();
  private static final long VERSION = BASE + 20_000;

  private static ClickScript script() {
    return new ClickScript(
        13,
        BASE,
        400,
        new long[] {BASE + 10_000, VERSION},
        new CountDownLatch[] {new CountDownLatch(0)},
        new long[0]);
  }

  @Test
  void exactSumsLeaveOutLateEventsAndCountEventsBeforeT() {
    ClickScript script = script();
    long expectedTotal = 0;
    for (ClickScript.Arrival a : script.arrivals) {
      if (!a.late() && a.event().timestampMillis() < VERSION) {
        expectedTotal += a.event().value();
      }
    }
    assertTrue(
        script.arrivals.stream().anyMatch(ClickScript.Arrival::late), "the script has late events");
    assertEquals(
        expectedTotal, script.exactSums(VERSION).stream().mapToLong(ClickScript.Row::value).sum());
  }

  @Test
  void aMismatchIsExplainedByTheKeysArrivalsAroundT() {
    ClickScript script = script();
    List<ClickScript.Row> expected = script.exactSums(VERSION);
    List<ClickScript.Row> actual = new ArrayList<>(expected);
    ClickScript.Row first = actual.get(0);
    actual.set(
        0, new ClickScript.Row(first.key(), first.value() + 1, first.updatedAt(), first.version()));
    String explanation = script.explainExactDifference(expected, actual, VERSION);
    assertTrue(explanation.contains(first.key() + ": expected " + first), explanation);
    assertTrue(explanation.contains("ts T-"), explanation);
    assertEquals(1, explanation.split(": expected ").length - 1, "only the differing key");
    assertEquals("", script.explainExactDifference(expected, expected, VERSION));
  }
}
