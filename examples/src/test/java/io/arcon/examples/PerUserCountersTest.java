package io.arcon.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PerUserCountersTest {

  private static final String HEADER = "window_start,user,clicks,points";

  @TempDir Path tmp;

  static Stream<String> runners() {
    return Runners.names();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runners")
  void timerOutputEqualsPlainJavaCountsPerUserAndWindow(String runner) {
    PerUserCounters.Options options =
        Runners.options(
            PerUserCounters.Options.class,
            runner,
            "--events=3000",
            "--users=7",
            "--windowSeconds=20",
            "--output=" + tmp.resolve("counters"));
    Pipeline pipeline = Pipeline.create(options);
    PerUserCounters.build(pipeline, options);
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());

    Map<String, String> actual = new HashMap<>();
    for (String line : Runners.readLines(tmp, "counters")) {
      if (line.equals(HEADER)) {
        continue;
      }
      String[] fields = line.split(",");
      assertEquals(4, fields.length, "malformed line: " + line);
      String previous = actual.put(fields[0] + "," + fields[1], fields[2] + "," + fields[3]);
      assertNull(previous, "user and window emitted twice: " + line);
    }
    assertEquals(expected(options), actual);
  }

  /** {@code window_start,user -> clicks,points}, computed without Beam. */
  private static Map<String, String> expected(PerUserCounters.Options options) {
    ClickSpec spec = PerUserCounters.clickSpec(options);
    long windowMillis = options.getWindowSeconds() * 1000;
    Map<String, long[]> totals = new HashMap<>();
    for (long i = 0; i < options.getEvents(); i++) {
      long time = spec.eventTime(i).getMillis();
      Instant windowStart = new Instant(Math.floorDiv(time, windowMillis) * windowMillis);
      long[] total = totals.computeIfAbsent(windowStart + "," + spec.user(i), k -> new long[2]);
      total[0]++;
      total[1] += spec.points(i);
    }
    Map<String, String> expected = new HashMap<>();
    totals.forEach((key, total) -> expected.put(key, total[0] + "," + total[1]));
    return expected;
  }

  @Test
  void rejectsNonPositiveWindow() {
    PerUserCounters.Options options =
        Runners.options(PerUserCounters.Options.class, "DirectRunner", "--windowSeconds=0");
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> PerUserCounters.build(Pipeline.create(options), options));
    assertEquals("--windowSeconds must be positive, got 0", error.getMessage());
  }
}
