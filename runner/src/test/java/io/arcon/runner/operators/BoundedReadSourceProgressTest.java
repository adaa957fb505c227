package io.arcon.runner.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.metrics.OperatorMetrics;
import io.arcon.runner.progress.ProgressOptions;
import io.arcon.runner.progress.ReadProgress;
import io.arcon.runtime.operator.SourceOperator.PollResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.apache.beam.runners.core.metrics.MetricsContainerStepMap;
import org.apache.beam.sdk.io.BoundedSource;
import org.apache.beam.sdk.io.TextSource;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.options.ValueProvider.StaticValueProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a bounded read reports to the job's progress, poll by poll and after a restore. */
class BoundedReadSourceProgressTest {
  private final ProgressOptions options = PipelineOptionsFactory.as(ProgressOptions.class);
  private final ReadProgress progress = new ReadProgress();
  // One step: the instances of every attempt report under the same step.
  private final OperatorMetrics metrics =
      new OperatorMetrics(new MetricsContainerStepMap(), "Read");
  @TempDir Path checkpoints;
  @TempDir Path inputs;

  private Supplier<BoundedReadSource<String>> reading(BoundedSource<String> source) {
    return () -> new BoundedReadSource<>(source, options, metrics, progress, "Read");
  }

  private Path writeFile() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 3_000; i++) {
      text.append("line ").append(i).append(' ').append("ü".repeat(i % 13)).append('\n');
    }
    return Files.writeString(inputs.resolve("input.txt"), text, StandardCharsets.UTF_8);
  }

  private static TextSource textSource(Path file) {
    return new TextSource(
        StaticValueProvider.of(file.toString()), EmptyMatchTreatment.DISALLOW, null);
  }

  /** Polls every instance in turn until each is done, checking the progress after every poll. */
  private void pollToEndChecking(SourceInstances instances, int parallelism, long estimate)
      throws Exception {
    boolean[] done = new boolean[parallelism];
    long lastBytes = 0;
    for (int remaining = parallelism; remaining > 0; ) {
      for (int i = 0; i < parallelism; i++) {
        if (done[i]) {
          continue;
        }
        if (instances.pollOnce(i, 64) == PollResult.DONE) {
          done[i] = true;
          remaining--;
        }
        ReadProgress.Totals totals = progress.total();
        assertEquals(instances.totalEmitted(), totals.elements());
        assertEquals(estimate, totals.estimatedBytes());
        assertTrue(totals.bytesRead() >= lastBytes, "bytes read went back: " + totals);
        assertTrue(totals.bytesRead() <= estimate, "read past the estimate: " + totals);
        lastBytes = totals.bytesRead();
      }
    }
  }

  @Test
  void everyPollPublishesElementsAndBytesUpToTheFilesSize() throws Exception {
    Path file = writeFile();
    long size = Files.size(file);
    try (SourceInstances instances = SourceInstances.start(reading(textSource(file)), 2, false)) {
      assertEquals(new ReadProgress.Totals(2, false, 0, 0, size), progress.total());
      pollToEndChecking(instances, 2, size);
      assertEquals(Files.readAllLines(file).size(), instances.totalEmitted());
    }
    assertEquals(new ReadProgress.Totals(2, false, 3_000, size, size), progress.total());
  }

  @Test
  void aRestoredInstanceMeasuresWhatItHasLeftToRead() throws Exception {
    Path file = writeFile();
    TextSource source = textSource(file);
    List<? extends BoundedSource<String>> splits = BoundedReadSource.split(source, options, 2);
    assertEquals(2, splits.size());
    long leftAfterFirstSplit = splits.get(1).getEstimatedSizeBytes(options);
    List<Path> snapshot;
    long emittedBefore;
    try (SourceInstances first = SourceInstances.start(reading(source), 2, true)) {
      while (first.pollOnce(0, 64) != PollResult.DONE) {} // instance 0 reads all of its split
      first.pollOnce(1, 64); // instance 1 reads a little of its one
      emittedBefore = first.totalEmitted();
      snapshot = first.snapshot(1, checkpoints);
    }
    try (SourceInstances second = SourceInstances.restore(reading(source), 2, 1, snapshot)) {
      // The restored instances replaced the first ones: only the unfinished split is left.
      assertEquals(new ReadProgress.Totals(2, false, 0, 0, leftAfterFirstSplit), progress.total());
      pollToEndChecking(second, 2, leftAfterFirstSplit);
      assertEquals(3_000 - emittedBefore, progress.total().elements());
    }
    assertEquals(leftAfterFirstSplit, progress.total().bytesRead());
  }
}
