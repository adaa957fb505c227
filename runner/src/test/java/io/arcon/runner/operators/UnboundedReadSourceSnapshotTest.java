package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.snapshot.CorruptSnapshotException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.io.CountingSource;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.WindowedValue;
import org.apache.beam.sdk.values.WindowedValues;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnboundedReadSourceSnapshotTest {
  private final PipelineOptions options = PipelineOptionsFactory.create();
  private final String run = UUID.randomUUID().toString();
  @TempDir Path checkpoints;

  private <T> Supplier<UnboundedReadSource<T>> reading(UnboundedSource<T, ?> source) {
    return reading(source, UnboundedReadSource.Limits.NONE);
  }

  private <T> Supplier<UnboundedReadSource<T>> reading(
      UnboundedSource<T, ?> source, UnboundedReadSource.Limits limits) {
    return () ->
        new UnboundedReadSource<>(
            source,
            options,
            new OperatorMetrics(new MetricsContainerStepMap(), "Read"),
            limits,
            null,
            "Read");
  }

  @Test
  void countingSourceResumesAtItsMarkWithNothingLostOrRepeated() throws Exception {
    Supplier<UnboundedReadSource<Long>> read =
        reading(CountingSource.unboundedWithTimestampFn(Instant::new));
    List<Object> before;
    List<Object> after;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollAtLeast(250, 64);
      before = first.takeEmitted().get(0);
      snapshot = first.snapshot(1, checkpoints);
      first.pollAtLeast(300, 64);
      after = first.takeEmitted().get(0);
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(read, 1, 1, snapshot)) {
      second.pollAtLeast(after.size(), 64);
      restored = second.takeEmitted().get(0);
    }
    assertEquals(after, restored.subList(0, after.size()));
    // Independently of the first run: the counting source yields 0, 1, 2, ... at timestamp = value.
    List<Object> whole = new ArrayList<>(before);
    whole.addAll(restored);
    for (int i = 0; i < whole.size(); i++) {
      assertEquals(
          WindowedValues.timestampedValueInGlobalWindow((long) i, new Instant(i)), whole.get(i));
    }
  }

  @Test
  void everySplitResumesAtItsMarkWithTheSameParallelism() throws Exception {
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 5, 40, 0);
    Supplier<UnboundedReadSource<Long>> read = reading(source);
    List<List<Object>> before;
    List<List<Object>> after;
    List<Path> snapshot;
    List<Long> watermarks = new ArrayList<>();
    try (SourceInstances first = SourceInstances.start(read, 2, true)) {
      first.pollAtLeast(70, 7);
      before = first.takeEmitted();
      snapshot = first.snapshot(1, checkpoints);
      first.operators.forEach(o -> watermarks.add(o.currentWatermark()));
      first.pollToEnd(7);
      after = first.takeEmitted();
    }
    List<List<Object>> restored;
    try (SourceInstances second = SourceInstances.restore(read, 2, 1, snapshot)) {
      // The restored instances do not fall back behind the watermark they had reached.
      assertEquals(watermarks.get(0), second.operators.get(0).currentWatermark());
      assertEquals(watermarks.get(1), second.operators.get(1).currentWatermark());
      assertTrue(watermarks.get(0) > 0, "the splits had read records before the snapshot");
      second.pollToEnd(7);
      restored = second.takeEmitted();
    }
    // Each instance resumes its own splits, so its output is the same sequence.
    assertEquals(after, restored);
    assertExactlyOnce(source.allValues(), flatten(before), flatten(restored));
  }

  @ParameterizedTest(name = "parallelism {0} -> {1}")
  @CsvSource({"2, 3", "3, 1", "1, 4"})
  void changedParallelismRedistributesTheSplitsLosingAndRepeatingNothing(int from, int to)
      throws Exception {
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 5, 40, 0);
    Supplier<UnboundedReadSource<Long>> read = reading(source);
    List<Object> before;
    List<Object> after;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, from, true)) {
      first.pollAtLeast(90, 5);
      before = flatten(first.takeEmitted());
      snapshot = first.snapshot(1, checkpoints);
      first.pollToEnd(5);
      after = flatten(first.takeEmitted());
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(read, to, 1, snapshot)) {
      second.pollToEnd(5);
      restored = flatten(second.takeEmitted());
      assertTrue(second.operators.stream().allMatch(o -> o.currentWatermark() == Long.MAX_VALUE));
    }
    assertEquals(sorted(after), sorted(restored));
    assertExactlyOnce(source.allValues(), before, restored);
  }

  @Test
  void recordIdsSeenBeforeTheSnapshotStillDeduplicateRedeliveries() throws Exception {
    // A resumed reader redelivers the 3 records before its mark; only the restored dedup state
    // tells the instance they were emitted already.
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 2, 30, 3);
    Supplier<UnboundedReadSource<Long>> read = reading(source);
    List<Object> before;
    List<Object> after;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollAtLeast(21, 6);
      before = first.takeEmitted().get(0);
      snapshot = first.snapshot(1, checkpoints);
      first.pollToEnd(6);
      after = first.takeEmitted().get(0);
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(read, 1, 1, snapshot)) {
      second.pollToEnd(6);
      restored = second.takeEmitted().get(0);
    }
    assertEquals(after, restored);
    assertExactlyOnce(source.allValues(), before, restored);
  }

  @Test
  void theRecordLimitCountsWhatWasReadBeforeTheSnapshot() throws Exception {
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 2, 100, 0);
    Supplier<UnboundedReadSource<Long>> read =
        reading(source, new UnboundedReadSource.Limits(50, Long.MAX_VALUE));
    List<Object> before;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollAtLeast(20, 4);
      before = first.takeEmitted().get(0);
      snapshot = first.snapshot(1, checkpoints);
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(read, 1, 1, snapshot)) {
      second.pollToEnd(4);
      restored = second.takeEmitted().get(0);
    }
    // 25 records per split in all: the first 25 of each.
    List<Long> expected = new ArrayList<>();
    for (int s = 0; s < 2; s++) {
      for (long k = 0; k < 25; k++) {
        expected.add(RecordingUnboundedSource.value(s, k));
      }
    }
    assertExactlyOnce(expected, before, restored);
  }

  @Test
  void marksAreFinalizedOnlyOnceTheirEpochCompletedAndInEpochOrder() throws Exception {
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 1, 1_000, 0);
    List<String> expected = new ArrayList<>();
    try (SourceInstances job = SourceInstances.start(reading(source), 1, true)) {
      for (long epoch = 1; epoch <= 4; epoch++) {
        job.pollAtLeast(10 * epoch, 3);
        job.snapshot(epoch, checkpoints);
        // One split, no dedup: the mark's next record is the count emitted so far.
        expected.add("0:" + job.totalEmitted());
      }
      job.pollAtLeast(5, 3);
      assertEquals(List.of(), RecordingUnboundedSource.finalized(run), "nothing is durable yet");

      job.epochCompleted(1);
      assertEquals(expected.subList(0, 1), RecordingUnboundedSource.finalized(run));
      job.epochCompleted(3); // epoch 2 never reported complete: its marks go with epoch 3's
      assertEquals(expected.subList(0, 3), RecordingUnboundedSource.finalized(run));
      job.epochCompleted(3);
      assertEquals(expected.subList(0, 3), RecordingUnboundedSource.finalized(run));
    }
    // Epoch 4 never completed: closing drops its marks.
    assertEquals(expected.subList(0, 3), RecordingUnboundedSource.finalized(run));
  }

  @Test
  void aFinishedSplitsLastMarkIsFinalizedOnce() throws Exception {
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 1, 12, 0);
    try (SourceInstances job = SourceInstances.start(reading(source), 1, true)) {
      job.pollToEnd(5);
      job.snapshot(1, checkpoints);
      job.snapshot(2, checkpoints);
      job.epochCompleted(2);
    }
    assertEquals(List.of("0:12"), RecordingUnboundedSource.finalized(run));
  }

  @Test
  void withoutCheckpointingMarksAreFinalizedWhenTheBundleFinishes() throws Exception {
    RecordingUnboundedSource source = new RecordingUnboundedSource(run, 1, 100, 0);
    try (SourceInstances job = SourceInstances.start(reading(source), 1, false)) {
      for (int bundle = 1; bundle <= 3; bundle++) {
        job.pollOnce(0, 4);
        List<String> finalized = RecordingUnboundedSource.finalized(run);
        assertEquals(bundle, finalized.size());
        assertEquals("0:" + job.totalEmitted(), finalized.get(bundle - 1));
      }
    }
  }

  @Test
  void aDamagedSnapshotIsRefusedNamingTheFile() throws Exception {
    Supplier<UnboundedReadSource<Long>> read = reading(new RecordingUnboundedSource(run, 3, 50, 1));
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollAtLeast(20, 4);
      snapshot = first.snapshot(1, checkpoints);
    }
    Path file = snapshot.get(0).resolve(UnboundedReadSource.SNAPSHOT_FILE);
    byte[] content = Files.readAllBytes(file);

    Files.write(file, Arrays.copyOf(content, content.length - 3));
    assertRefused(read, snapshot, file);

    byte[] flipped = content.clone();
    flipped[content.length / 2] ^= 0x10;
    Files.write(file, flipped);
    assertRefused(read, snapshot, file);

    // An instance directory left empty stands for an instance that had finished before the cut
    // (the epoch's manifest catches a lost file); with anything else in it, a missing file is
    // damage.
    Files.delete(file);
    Files.writeString(file.resolveSibling("keyed-state-leftover"), "x");
    assertRefused(read, snapshot, file);
  }

  private static void assertRefused(
      Supplier<UnboundedReadSource<Long>> read, List<Path> snapshot, Path file) {
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class, () -> SourceInstances.restore(read, 1, 1, snapshot));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertEquals(file, e.file());
  }

  /** {@code before} and {@code after} together hold every value of {@code all} exactly once. */
  static void assertExactlyOnce(List<Long> all, List<Object> before, List<Object> after) {
    List<Object> both = new ArrayList<>(before);
    both.addAll(after);
    assertEquals(sorted(all), sortedValues(both));
  }

  static List<Object> flatten(List<List<Object>> perInstance) {
    List<Object> all = new ArrayList<>();
    perInstance.forEach(all::addAll);
    return all;
  }

  @SuppressWarnings("unchecked")
  static List<Long> sortedValues(List<Object> windowedValues) {
    List<Long> values = new ArrayList<>();
    for (Object element : windowedValues) {
      values.add(((WindowedValue<Long>) element).getValue());
    }
    values.sort(null);
    return values;
  }

  static List<Long> sorted(List<?> elements) {
    List<Long> values = new ArrayList<>();
    for (Object element : elements) {
      values.add(element instanceof WindowedValue<?> wv ? (Long) wv.getValue() : (Long) element);
    }
    values.sort(null);
    return values;
  }
}
