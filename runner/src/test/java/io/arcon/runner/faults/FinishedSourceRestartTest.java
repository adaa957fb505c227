package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded input ({@code Create}) that finished epochs before the one a restart resumes from, next
 * to an unbounded one that runs on: its elements must count once. Epochs recorded as finished only
 * the instances that ended while they were in flight, so a later epoch took the finished source for
 * a new one, and the restart read its whole input again (every bounded element counted twice).
 */
class FinishedSourceRestartTest {
  private static final EventStream STREAM = new EventStream(10_000, 21L, 4, 5_000);
  private static final int BOUNDED = 100;
  private static final Map<String, Long> PANES = new ConcurrentHashMap<>();
  private static volatile FailAfterEpochs failure;

  @Test
  void aSourceThatFinishedBeforeTheRestoredEpochIsNotReadAgain(@TempDir Path dir) {
    Path checkpoints = dir.resolve("checkpoints");
    ArconPipelineOptions options =
        FailAfterEpochs.options("finished_source_restart", checkpoints, 1);
    failure =
        new FailAfterEpochs(
            CheckpointDirs.jobDirectory(checkpoints, options.getJobName()), STREAM.events() / 2);

    Pipeline p = Pipeline.create(options);
    PCollection<String> streamed =
        p.apply("Events", Read.from(new EventSource(STREAM)))
            .apply("FailOnceAfterEpochs", ParDo.of(new FailOnceAfterEpochs()));
    PCollection<String> bounded =
        p.apply(
            "Bounded",
            Create.timestamped(
                Collections.nCopies(
                    BOUNDED,
                    TimestampedValue.of("bounded", EventStream.START.plus(Duration.millis(500))))));
    PCollectionList.of(streamed)
        .and(bounded)
        .apply(Flatten.pCollections())
        // Two windows hold the whole stream (its dropped events fall before its start): what
        // counts late counts in a later pane.
        .apply(
            Window.<String>into(FixedWindows.of(Duration.standardDays(1)))
                .withAllowedLateness(Duration.standardDays(1))
                .discardingFiredPanes())
        .apply(Count.perElement())
        .apply("Record", ParDo.of(new Record()));
    PipelineResult.State state = p.run().waitUntilFinish(Duration.standardMinutes(2));

    assertEquals(PipelineResult.State.DONE, state);
    assertTrue(failure.failed(), "the job failed once, epochs after the bounded input ended");
    assertEquals(
        new TreeMap<>(Map.of("bounded", (long) BOUNDED, "streamed", (long) STREAM.events())),
        countsByKey());
  }

  static final class FailOnceAfterEpochs extends DoFn<Event, String> {
    @ProcessElement
    public void process(@Element Event e, OutputReceiver<String> out) throws InterruptedException {
      failure.slowDownAndMaybeFail(e.slot());
      out.output("streamed");
    }
  }

  /**
   * Keeps each pane's count by key, window and pane index: a pane emitted before the failure and
   * again after the restart (from an epoch before it) is the same pane, counted once.
   */
  static final class Record extends DoFn<KV<String, Long>, Void> {
    @ProcessElement
    public void process(@Element KV<String, Long> count, BoundedWindow window, PaneInfo pane) {
      PANES.put(count.getKey() + "|" + window + "|" + pane.getIndex(), count.getValue());
    }
  }

  private static Map<String, Long> countsByKey() {
    Map<String, Long> counts = new TreeMap<>();
    PANES.forEach(
        (pane, count) -> counts.merge(pane.substring(0, pane.indexOf('|')), count, Long::sum));
    return counts;
  }
}
