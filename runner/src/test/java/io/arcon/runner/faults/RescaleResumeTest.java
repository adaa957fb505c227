package io.arcon.runner.faults;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --restoreFrom} into a different pipeline configuration: a run fails for good (no retries)
 * after many epochs, and a new run resumes its newest epoch at another parallelism and on another
 * engine. Keyed state moves by key group, the source's position to its new owner; the output must
 * still equal the oracle exactly.
 */
class RescaleResumeTest {
  /** A slot near the end of the stream, where the first run fails. */
  private static final long FAIL_AT_SLOT = 8_500;

  @AfterAll
  static void printTotals() {
    FaultLedger.printTotals();
  }

  static Stream<Arguments> changes() {
    return Stream.of(
        Arguments.of("heap", 2, "rocksdb", 3),
        Arguments.of("rocksdb", 2, "lmdb", 1),
        Arguments.of("lmdb", 2, "heap", 3));
  }

  @ParameterizedTest(name = "{0} p{1} -> {2} p{3}")
  @MethodSource("changes")
  void resumesAtAnotherParallelismAndEngine(
      String fromBackend,
      int fromParallelism,
      String toBackend,
      int toParallelism,
      @TempDir(factory = MemoryTempDirs.class) Path dir) {
    String job = "rescale_" + fromBackend;
    FaultPipelineMain.Options first = FaultRuns.options(fromBackend, job, dir);
    first.setParallelism(fromParallelism);
    List<Path> epochs = FaultRuns.runUntilFailureAt(first, FaultRuns.STREAM, FAIL_AT_SLOT);
    Path jobDirectory = epochs.get(0).getParent();

    FaultPipelineMain.Options resumed = FaultRuns.options(toBackend, job, dir);
    resumed.setParallelism(toParallelism);
    resumed.setRestoreFrom(jobDirectory.toString());
    FaultRuns.runToCompletion(resumed, FaultRuns.STREAM);
    FaultRuns.assertExactlyOnce(
        FaultRuns.STREAM,
        FaultRuns.outputDir(dir),
        fromBackend + " p" + fromParallelism + " -> " + toBackend + " p" + toParallelism);
    FaultLedger.record(
        "resume-rescaled",
        fromBackend,
        1,
        "to="
            + toBackend
            + " p"
            + fromParallelism
            + "->p"
            + toParallelism
            + " epochs="
            + epochs.size());
  }
}
