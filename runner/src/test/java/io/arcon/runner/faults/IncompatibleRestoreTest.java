package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconPipelineResult;
import io.arcon.runner.ArconRunner;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --restoreFrom} with a pipeline whose stateful step runs another DoFn than the
 * checkpoint's: the job fails at once with the reason, not after every retry the options allow
 * (each restores the same checkpoint and fails the same way).
 */
class IncompatibleRestoreTest {
  private static final long ELEMENTS = 100_000;
  private static final AtomicBoolean FAILED = new AtomicBoolean();
  private static volatile Path jobCheckpoints;

  @Test
  void aCheckpointOfAnotherDoFnFailsTheJobWithoutRetries(@TempDir Path dir) {
    Path checkpoints = dir.resolve("checkpoints");
    ArconPipelineOptions first = options(checkpoints, 0);
    jobCheckpoints = CheckpointDirs.jobDirectory(checkpoints, first.getJobName());
    Pipeline original = Pipeline.create(first);
    build(original, new First.Count());
    assertThrows(Pipeline.PipelineExecutionException.class, original.run()::waitUntilFinish);
    assertTrue(FAILED.get(), "the first run failed after an epoch");
    assertFalse(CheckpointDirs.completeEpochs(jobCheckpoints).isEmpty(), "it kept its epochs");

    ArconPipelineOptions second = options(checkpoints, 3);
    second.setRestoreFrom(jobCheckpoints.toString());
    Pipeline changed = Pipeline.create(second);
    build(changed, new Second.Count());
    ArconPipelineResult result = (ArconPipelineResult) changed.run();
    Pipeline.PipelineExecutionException failure =
        assertThrows(Pipeline.PipelineExecutionException.class, result::waitUntilFinish);
    assertEquals(PipelineResult.State.FAILED, result.getState());
    assertTrue(
        failure.getMessage().contains("--restoreFrom needs the same pipeline"),
        failure.getMessage());
    assertEquals(1, result.observedJob().stats().attempts(), "no retry of a certain mismatch");
  }

  private static ArconPipelineOptions options(Path checkpoints, int retries) {
    ArconPipelineOptions options = PipelineOptionsFactory.as(ArconPipelineOptions.class);
    options.setRunner(ArconRunner.class);
    options.setParallelism(2);
    options.setTss("off");
    options.setWebUi("off");
    options.setJobName("incompatible_restore");
    options.setCheckpointingInterval(50L);
    options.setCheckpointDir(checkpoints.toString());
    options.setNumberOfExecutionRetries(retries);
    options.setExecutionRetryDelay(5L);
    return options;
  }

  /** The same step names in both runs; only the stateful DoFn behind "Count" differs. */
  private static void build(Pipeline p, DoFn<KV<Long, Long>, Long> count) {
    p.apply(GenerateSequence.from(0).to(ELEMENTS))
        .apply(WithKeys.of((Long x) -> x % 10).withKeyType(TypeDescriptors.longs()))
        .apply("Count", ParDo.of(count));
  }

  /**
   * The first run's DoFn: counts per key, slowed a little so that epochs complete while the source
   * reads, and fails for good at the first element past the middle once three epochs are complete.
   */
  static final class First {
    static final class Count extends DoFn<KV<Long, Long>, Long> {
      @StateId("count")
      private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

      @ProcessElement
      public void process(@Element KV<Long, Long> e, @StateId("count") ValueState<Long> count)
          throws InterruptedException {
        long x = e.getValue();
        if (x % 250 == 0) {
          Thread.sleep(1);
        }
        if (x >= ELEMENTS / 2
            && CheckpointDirs.newestCompleteEpoch(jobCheckpoints) >= 3
            && FAILED.compareAndSet(false, true)) {
          throw new IllegalStateException("planned failure at " + x);
        }
        Long c = count.read();
        count.write(c == null ? 1 : c + 1);
      }
    }
  }

  /** Another DoFn with the same simple name, so that the steps are named alike. */
  static final class Second {
    static final class Count extends DoFn<KV<Long, Long>, Long> {
      @StateId("count")
      private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

      @ProcessElement
      public void process(@Element KV<Long, Long> e, @StateId("count") ValueState<Long> count) {
        count.write(e.getValue());
      }
    }
  }
}
