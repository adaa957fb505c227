package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runner.ArconPipelineOptions;
import io.arcon.runner.ArconPipelineResult;
import java.nio.file.Path;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.GenerateSequence;
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
  private static final String JOB = "incompatible_restore";
  private static volatile FailAfterEpochs failure;

  @Test
  void aCheckpointOfAnotherDoFnFailsTheJobWithoutRetries(@TempDir Path dir) {
    Path checkpoints = dir.resolve("checkpoints");
    ArconPipelineOptions first = FailAfterEpochs.options(JOB, checkpoints, 0);
    Path jobCheckpoints = CheckpointDirs.jobDirectory(checkpoints, JOB);
    failure = new FailAfterEpochs(jobCheckpoints, ELEMENTS / 2);
    Pipeline original = Pipeline.create(first);
    build(original, new First.Count());
    assertThrows(Pipeline.PipelineExecutionException.class, original.run()::waitUntilFinish);
    assertTrue(failure.failed(), "the first run failed after an epoch");
    assertFalse(CheckpointDirs.completeEpochs(jobCheckpoints).isEmpty(), "it kept its epochs");

    ArconPipelineOptions second = FailAfterEpochs.options(JOB, checkpoints, 3);
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

  /** The same step names in both runs; only the stateful DoFn behind "Count" differs. */
  private static void build(Pipeline p, DoFn<KV<Long, Long>, Long> count) {
    p.apply(GenerateSequence.from(0).to(ELEMENTS))
        .apply(WithKeys.of((Long x) -> x % 10).withKeyType(TypeDescriptors.longs()))
        .apply("Count", ParDo.of(count));
  }

  /** The first run's DoFn: counts per key and fails for good after some epochs. */
  static final class First {
    static final class Count extends DoFn<KV<Long, Long>, Long> {
      @StateId("count")
      private final StateSpec<ValueState<Long>> countSpec = StateSpecs.value(VarLongCoder.of());

      @ProcessElement
      public void process(@Element KV<Long, Long> e, @StateId("count") ValueState<Long> count)
          throws InterruptedException {
        failure.slowDownAndMaybeFail(e.getValue());
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
