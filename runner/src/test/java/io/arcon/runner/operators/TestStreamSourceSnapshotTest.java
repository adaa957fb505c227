package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.operators.snapshot.CorruptSnapshotException;
import io.arcon.runtime.job.JobActivity;
import io.arcon.runtime.job.ManualClock;
import io.arcon.runtime.operator.SourceOperator.PollResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.WindowedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestStreamSourceSnapshotTest {
  private static final long START = 1_000;

  private final List<TestStream.Event<Long>> events =
      TestStream.create(VarLongCoder.of())
          .addElements(
              TimestampedValue.of(1L, new Instant(10)), TimestampedValue.of(2L, new Instant(20)))
          .advanceWatermarkTo(new Instant(100))
          .advanceProcessingTime(Duration.standardSeconds(10))
          .addElements(TimestampedValue.of(3L, new Instant(150)))
          .advanceWatermarkTo(new Instant(200))
          .advanceProcessingTime(Duration.standardSeconds(5))
          .addElements(
              TimestampedValue.of(4L, new Instant(250)), TimestampedValue.of(5L, new Instant(260)))
          .advanceWatermarkToInfinity()
          .getEvents();

  private final JobActivity activity = new JobActivity();
  @TempDir Path checkpoints;

  /** What one poll did: the elements it emitted, and the watermark and clock after it. */
  private record Step(List<Long> elements, long watermark, long clock) {}

  private List<Step> pollToEnd(SourceInstances instances, ManualClock clock) throws Exception {
    List<Step> steps = new ArrayList<>();
    for (int polls = 0; polls < 100; polls++) {
      PollResult result = instances.pollOnce(0, 10);
      steps.add(
          new Step(
              values(instances.takeEmitted().get(0)),
              instances.operators.get(0).currentWatermark(),
              clock.nowMillis()));
      if (result == PollResult.DONE) {
        return steps;
      }
    }
    throw new AssertionError("the test stream did not end");
  }

  @ParameterizedTest(name = "snapshot after {0} events")
  @ValueSource(ints = {0, 1, 3, 4, 6, 8})
  void aRestoredStreamContinuesWithTheNextEventAtTheSameProcessingTime(int eventsBefore)
      throws Exception {
    ManualClock clock = new ManualClock(START);
    List<Step> before = new ArrayList<>();
    List<Step> after;
    List<Path> snapshot;
    try (SourceInstances first =
        SourceInstances.start(() -> new TestStreamSource<>(events, clock, activity), 1, true)) {
      for (int i = 0; i < eventsBefore; i++) {
        first.pollOnce(0, 10);
        before.add(
            new Step(
                values(first.takeEmitted().get(0)),
                first.operators.get(0).currentWatermark(),
                clock.nowMillis()));
      }
      snapshot = first.snapshot(1, checkpoints);
      after = pollToEnd(first, clock);
    }
    // A new process: its clock started later, at its own wall-clock time.
    ManualClock laterClock = new ManualClock(START + 3_600_000);
    List<Step> restored;
    try (SourceInstances second =
        SourceInstances.restore(
            () -> new TestStreamSource<>(events, laterClock, activity), 1, 1, snapshot)) {
      long expectedWatermark =
          before.isEmpty() ? Long.MIN_VALUE : before.get(before.size() - 1).watermark();
      assertEquals(expectedWatermark, second.operators.get(0).currentWatermark());
      restored = pollToEnd(second, laterClock);
    }
    assertEquals(after, restored);
    // Independently of the first run: all five elements once, 15 s of processing time in all.
    List<Long> elements = new ArrayList<>();
    before.forEach(step -> elements.addAll(step.elements()));
    restored.forEach(step -> elements.addAll(step.elements()));
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), elements);
    assertEquals(START + 15_000, restored.get(restored.size() - 1).clock());
    assertEquals(Long.MAX_VALUE, restored.get(restored.size() - 1).watermark());
  }

  @Test
  void onlyInstanceZeroReplaysTheStreamAfterAParallelismChange() throws Exception {
    ManualClock clock = new ManualClock(START);
    List<Path> snapshot;
    try (SourceInstances first =
        SourceInstances.start(() -> new TestStreamSource<>(events, clock, activity), 2, true)) {
      first.pollOnce(0, 10);
      first.pollOnce(1, 10);
      snapshot = first.snapshot(1, checkpoints);
    }
    try (SourceInstances second =
        SourceInstances.restore(
            () -> new TestStreamSource<>(events, clock, activity), 3, 1, snapshot)) {
      second.pollToEnd(10);
      assertEquals(List.of(3L, 4L, 5L), values(second.contexts.get(0).emitted));
      assertEquals(List.of(), second.contexts.get(1).emitted);
      assertEquals(List.of(), second.contexts.get(2).emitted);
    }
  }

  @Test
  void aCheckpointOfAnotherTestStreamIsRefused() throws Exception {
    ManualClock clock = new ManualClock(START);
    List<Path> snapshot;
    try (SourceInstances first =
        SourceInstances.start(() -> new TestStreamSource<>(events, clock, activity), 1, true)) {
      first.pollOnce(0, 10);
      snapshot = first.snapshot(1, checkpoints);
    }
    List<TestStream.Event<Long>> shorter = events.subList(0, 4);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                SourceInstances.restore(
                    () -> new TestStreamSource<>(shorter, clock, activity), 1, 1, snapshot));
    assertTrue(
        e.getMessage()
            .contains("TestStream of " + events.size() + " events, this pipeline's has 4"),
        e.getMessage());
  }

  @Test
  void aTruncatedSnapshotIsRefusedNamingTheFile() throws Exception {
    ManualClock clock = new ManualClock(START);
    List<Path> snapshot;
    try (SourceInstances first =
        SourceInstances.start(() -> new TestStreamSource<>(events, clock, activity), 1, true)) {
      first.pollOnce(0, 10);
      snapshot = first.snapshot(1, checkpoints);
    }
    Path file = snapshot.get(0).resolve(TestStreamSource.SNAPSHOT_FILE);
    byte[] content = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(content, content.length - 1));
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () ->
                SourceInstances.restore(
                    () -> new TestStreamSource<>(events, clock, activity), 1, 1, snapshot));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @SuppressWarnings("unchecked")
  private static List<Long> values(List<Object> windowedValues) {
    List<Long> values = new ArrayList<>();
    windowedValues.forEach(v -> values.add(((WindowedValue<Long>) v).getValue()));
    return values;
  }
}
