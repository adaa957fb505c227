package io.arcon.runner.operators;

import static io.arcon.runner.operators.UnboundedReadSourceSnapshotTest.flatten;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.operators.snapshot.CorruptSnapshotException;
import io.arcon.runtime.operator.SourceOperator.PollResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.BoundedSource;
import org.apache.beam.sdk.io.CountingSource;
import org.apache.beam.sdk.io.TextSource;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.ValueProvider.StaticValueProvider;
import org.apache.beam.sdk.values.WindowedValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BoundedReadSourceSnapshotTest {
  private static final int LINES = 3_000;

  private final PipelineOptions options = PipelineOptionsFactory.create();
  @TempDir Path checkpoints;
  @TempDir Path inputs;

  private <T> Supplier<BoundedReadSource<T>> reading(BoundedSource<T> source) {
    return () ->
        new BoundedReadSource<>(
            source, options, new OperatorMetrics(new MetricsContainerStepMap(), "Read"));
  }

  /** A text file of {@link #LINES} distinct lines, read with Beam's TextIO source. */
  private TextSource textFile() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < LINES; i++) {
      lines.add("line " + i + " " + "x".repeat(i % 17));
    }
    Path file = inputs.resolve("input.txt");
    Files.write(file, lines, StandardCharsets.UTF_8);
    return new TextSource(
        StaticValueProvider.of(file.toString()), EmptyMatchTreatment.DISALLOW, null);
  }

  private List<String> textLines() throws Exception {
    return Files.readAllLines(inputs.resolve("input.txt"), StandardCharsets.UTF_8);
  }

  @Test
  void countingSourceResumesAfterTheElementsAlreadyEmitted() throws Exception {
    Supplier<BoundedReadSource<Long>> read = reading(CountingSource.upTo(1_000));
    List<Object> before;
    List<Object> after;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollAtLeast(137, 50);
      before = first.takeEmitted().get(0);
      snapshot = first.snapshot(1, checkpoints);
      first.pollToEnd(50);
      after = first.takeEmitted().get(0);
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(read, 1, 1, snapshot)) {
      assertEquals(Long.MIN_VALUE, second.operators.get(0).currentWatermark());
      second.pollToEnd(50);
      restored = second.takeEmitted().get(0);
      assertEquals(Long.MAX_VALUE, second.operators.get(0).currentWatermark());
    }
    assertEquals(after, restored);
    List<Object> whole = new ArrayList<>(before);
    whole.addAll(restored);
    for (int i = 0; i < 1_000; i++) {
      assertEquals((long) i, ((WindowedValue<?>) whole.get(i)).getValue());
    }
    assertEquals(1_000, whole.size());
  }

  @Test
  void textFileSplitsResumeInTheSameOrderWithTheSameParallelism() throws Exception {
    Supplier<BoundedReadSource<String>> read = reading(textFile());
    List<List<Object>> before;
    List<List<Object>> after;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 2, true)) {
      first.pollAtLeast(1_100, 64);
      before = first.takeEmitted();
      snapshot = first.snapshot(1, checkpoints);
      first.pollToEnd(64);
      after = first.takeEmitted();
    }
    List<List<Object>> restored;
    try (SourceInstances second = SourceInstances.restore(read, 2, 1, snapshot)) {
      second.pollToEnd(64);
      restored = second.takeEmitted();
    }
    assertEquals(after, restored);
    assertEquals(sorted(textLines()), sortedStrings(flatten(before), flatten(restored)));
  }

  @ParameterizedTest(name = "parallelism {0} -> {1}")
  @CsvSource({"2, 3", "3, 1", "4, 2"})
  void changedParallelismRedistributesTheSplitsLosingAndRepeatingNothing(int from, int to)
      throws Exception {
    TextSource source = textFile();
    assertTrue(
        BoundedReadSource.split(source, options, from).size() >= from,
        "every instance has a split to hand over");
    Supplier<BoundedReadSource<String>> read = reading(source);
    List<Object> before;
    List<Object> after;
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, from, true)) {
      first.pollAtLeast(1_000, 37);
      before = flatten(first.takeEmitted());
      snapshot = first.snapshot(1, checkpoints);
      first.pollToEnd(37);
      after = flatten(first.takeEmitted());
    }
    List<Object> restored;
    try (SourceInstances second = SourceInstances.restore(read, to, 1, snapshot)) {
      second.pollToEnd(37);
      restored = flatten(second.takeEmitted());
    }
    assertEquals(sortedStrings(after, List.of()), sortedStrings(restored, List.of()));
    assertEquals(sorted(textLines()), sortedStrings(before, restored));
  }

  @Test
  void aSnapshotAfterTheLastElementRestoresAFinishedRead() throws Exception {
    Supplier<BoundedReadSource<Long>> read = reading(CountingSource.upTo(10));
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollToEnd(4);
      snapshot = first.snapshot(1, checkpoints);
    }
    try (SourceInstances second = SourceInstances.restore(read, 1, 1, snapshot)) {
      assertEquals(PollResult.DONE, second.pollOnce(0, 4));
      assertEquals(List.of(), second.allEmitted());
      assertEquals(Long.MAX_VALUE, second.operators.get(0).currentWatermark());
    }
  }

  @Test
  void aReaderThatDoesNotRepeatItselfIsReportedInsteadOfResumedWrongly() throws Exception {
    Supplier<BoundedReadSource<Long>> read = reading(new ShrinkingSource(UUID.randomUUID()));
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 1, true)) {
      first.pollAtLeast(6, 6);
      snapshot = first.snapshot(1, checkpoints);
    }
    try (SourceInstances second = SourceInstances.restore(read, 1, 1, snapshot)) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> second.pollOnce(0, 4));
      assertTrue(
          e.getMessage().contains("it yielded 3 elements, but 6 had been emitted"), e.getMessage());
      assertTrue(e.getMessage().contains("ShrinkingSource"), e.getMessage());
    }
  }

  @Test
  void aTruncatedSnapshotIsRefusedNamingTheFile() throws Exception {
    Supplier<BoundedReadSource<String>> read = reading(textFile());
    List<Path> snapshot;
    try (SourceInstances first = SourceInstances.start(read, 2, true)) {
      first.pollAtLeast(100, 10);
      snapshot = first.snapshot(1, checkpoints);
    }
    Path file = snapshot.get(1).resolve(BoundedReadSource.SNAPSHOT_FILE);
    byte[] content = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(content, content.length / 2));
    // Instance 0 of 1 gathers every previous instance, so it reads the damaged file too.
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class, () -> SourceInstances.restore(read, 1, 1, snapshot));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  private static List<String> sorted(List<String> lines) {
    List<String> copy = new ArrayList<>(lines);
    copy.sort(null);
    return copy;
  }

  private static List<String> sortedStrings(List<Object> first, List<Object> second) {
    List<String> values = new ArrayList<>();
    for (Object element : first) {
      values.add((String) ((WindowedValue<?>) element).getValue());
    }
    for (Object element : second) {
      values.add((String) ((WindowedValue<?>) element).getValue());
    }
    values.sort(null);
    return values;
  }

  /** Yields 0..9 from its first reader and only 0..2 from every later one: not deterministic. */
  private static final class ShrinkingSource extends BoundedSource<Long> {
    private static final Map<UUID, AtomicInteger> READERS = new ConcurrentHashMap<>();
    private final UUID id;

    ShrinkingSource(UUID id) {
      this.id = id;
    }

    @Override
    public List<? extends BoundedSource<Long>> split(long desired, PipelineOptions options) {
      return List.of(this);
    }

    @Override
    public long getEstimatedSizeBytes(PipelineOptions options) {
      return 80;
    }

    @Override
    public BoundedReader<Long> createReader(PipelineOptions options) {
      int created = READERS.computeIfAbsent(id, k -> new AtomicInteger()).getAndIncrement();
      long size = created == 0 ? 10 : 3;
      return new BoundedReader<>() {
        private long current = -1;

        @Override
        public boolean start() {
          return advance();
        }

        @Override
        public boolean advance() {
          return ++current < size;
        }

        @Override
        public Long getCurrent() {
          if (current < 0 || current >= size) {
            throw new NoSuchElementException();
          }
          return current;
        }

        @Override
        public void close() {}

        @Override
        public BoundedSource<Long> getCurrentSource() {
          return ShrinkingSource.this;
        }
      };
    }

    @Override
    public Coder<Long> getOutputCoder() {
      return VarLongCoder.of();
    }

    @Override
    public String toString() {
      return "ShrinkingSource";
    }
  }
}
