package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.arcon.runner.ArconRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;

/** What every fault test shares: the stream, the runner's options, running and checking. */
final class FaultRuns {
  /** 10 s of event time, read in 2 s: 10 windows, 6 keys, late and dropped events. */
  static final EventStream STREAM = new EventStream(10_000, 14L, 6, 5_000);

  /** The backends every fault kind runs on. */
  static final List<String> BACKENDS = List.of("heap", "rocksdb", "lmdb");

  /** Short epochs, so one run of the stream is cut into many. */
  static final long CHECKPOINTING_INTERVAL_MILLIS = 25;

  /** Longer than any run: a job that takes this long is hanging. */
  private static final Duration RUN_TIMEOUT = Duration.standardMinutes(3);

  private FaultRuns() {}

  /**
   * Options of an in-process run on {@code backend} with epochs every {@link
   * #CHECKPOINTING_INTERVAL_MILLIS} into {@code workDir/checkpoints}, state under {@code
   * workDir/state}, and (nearly) unlimited restarts with a short delay.
   */
  static FaultPipelineMain.Options options(String backend, String jobName, Path workDir) {
    FaultPipelineMain.Options options = PipelineOptionsFactory.as(FaultPipelineMain.Options.class);
    options.setRunner(ArconRunner.class);
    options.setParallelism(2);
    // The runner's tests do not register with the user's TSS control plane (~/.arcon/tss).
    options.setTss("off");
    options.setStateBackend(backend);
    options.setJobName(jobName);
    options.setCheckpointingInterval(CHECKPOINTING_INTERVAL_MILLIS);
    options.setCheckpointDir(checkpointDir(workDir).toString());
    options.setStateDir(workDir.resolve("state").toString());
    options.setOutputDir(outputDir(workDir).toString());
    options.setNumberOfExecutionRetries(10_000);
    options.setExecutionRetryDelay(5L);
    return options;
  }

  static Path checkpointDir(Path workDir) {
    return workDir.resolve("checkpoints");
  }

  static Path outputDir(Path workDir) {
    return workDir.resolve("output");
  }

  /** The command-line form of {@link #options}, for {@link FaultPipelineMain} in another JVM. */
  static List<String> arguments(String backend, String jobName, Path workDir, EventStream stream) {
    List<String> args = new ArrayList<>();
    args.add("--parallelism=2");
    args.add("--tss=off");
    args.add("--stateBackend=" + backend);
    args.add("--jobName=" + jobName);
    args.add("--checkpointingInterval=" + CHECKPOINTING_INTERVAL_MILLIS);
    args.add("--checkpointDir=" + checkpointDir(workDir));
    args.add("--stateDir=" + workDir.resolve("state"));
    args.add("--outputDir=" + outputDir(workDir));
    args.add("--events=" + stream.events());
    args.add("--seed=" + stream.seed());
    args.add("--keys=" + stream.keys());
    args.add("--eventsPerSecond=" + stream.eventsPerSecond());
    return args;
  }

  /**
   * Runs the pipeline over {@code stream} without restarts and fails it for good at {@code slot} (a
   * finished job deletes its checkpoints, a failed one keeps them); returns the complete epochs it
   * kept, oldest first.
   */
  static List<Path> runUntilFailureAt(
      FaultPipelineMain.Options options, EventStream stream, long slot) {
    options.setNumberOfExecutionRetries(0);
    DoFnFaults.plan(Map.of(slot, DoFnFaults.Site.INJECT_FAULTS));
    try {
      Pipeline p = Pipeline.create(options);
      FaultPipeline.build(p, stream, Path.of(options.getOutputDir()));
      assertThrows(Pipeline.PipelineExecutionException.class, p.run()::waitUntilFinish);
      assertEquals(1, DoFnFaults.thrown(), "the run failed at its planned fault");
    } finally {
      DoFnFaults.clear();
    }
    Path jobDirectory =
        CheckpointDirs.jobDirectory(Path.of(options.getCheckpointDir()), options.getJobName());
    List<Path> epochs = CheckpointDirs.completeEpochs(jobDirectory);
    assertFalse(epochs.isEmpty(), "the failed run kept its epochs in " + jobDirectory);
    return epochs;
  }

  /** Runs the pipeline over {@code stream}; fails unless it is DONE. */
  static PipelineResult runToCompletion(FaultPipelineMain.Options options, EventStream stream) {
    Pipeline p = Pipeline.create(options);
    FaultPipeline.build(p, stream, Path.of(options.getOutputDir()));
    PipelineResult result = p.run();
    PipelineResult.State state = result.waitUntilFinish(RUN_TIMEOUT);
    if (state == null || !state.isTerminal()) {
      try {
        result.cancel();
      } catch (java.io.IOException | RuntimeException e) {
        // reported with the hang below
      }
      fail("The job did not finish within " + RUN_TIMEOUT + " (state " + state + "): a hang");
    }
    assertEquals(PipelineResult.State.DONE, state, "final state of " + options.getJobName());
    return result;
  }

  /**
   * Asserts that the files in {@code outputDir} are exactly the oracle's: nothing lost or extra.
   */
  static void assertExactlyOnce(EventStream stream, Path outputDir, String run) {
    SortedMap<String, List<String>> expected = ExpectedOutput.of(stream);
    SortedMap<String, List<String>> actual = SinkFiles.read(outputDir);
    String difference = SinkFiles.difference(expected, actual);
    if (difference != null) {
      fail(
          run
              + ": the output in "
              + outputDir
              + " differs from the fault-free output ("
              + SinkFiles.lineCount(expected)
              + " lines expected, "
              + SinkFiles.lineCount(actual)
              + " written):"
              + difference);
    }
  }
}
