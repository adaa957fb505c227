package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.checkpoint.CompletedCheckpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Checkpoints with a flipped byte or a truncated file, in any of their files (manifest, metadata,
 * operator state, backend files), are refused by {@code --restoreFrom} with an error naming the
 * damaged file, before anything runs.
 */
class CorruptCheckpointTest {
  /** Damaged copies per backend: half with a flipped byte, half truncated. */
  static final int CASES = 6;

  /** A short stream: the test needs complete epochs, not a long run. */
  private static final EventStream STREAM = new EventStream(3_000, 15L, 6, 5_000);

  /** A slot near the end of the stream, where the source run fails. */
  private static final long STREAM_END_SLOT = 2_900;

  @AfterAll
  static void printTotals() {
    FaultLedger.printTotals();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("io.arcon.runner.faults.FaultRuns#BACKENDS")
  void damagedCheckpointsAreRefusedNamingTheFile(
      String backend, @TempDir(factory = MemoryTempDirs.class) Path dir) throws IOException {
    DoFnFaults.clear();
    long seed = 1_430 + FaultRuns.BACKENDS.indexOf(backend);
    Random random = new Random(seed);
    String job = "corrupt_" + backend;
    Path sourceDir = dir.resolve("source");
    FaultPipelineMain.Options options = FaultRuns.options(backend, job, sourceDir);
    options.setRetainedCheckpoints(1_000);
    List<Path> epochs = FaultRuns.runUntilFailureAt(options, STREAM, STREAM_END_SLOT);
    Path jobDirectory = epochs.get(0).getParent();

    int refused = 0;
    for (int c = 0; c < CASES; c++) {
      Path epoch = epochs.get(random.nextInt(epochs.size()));
      Path caseDir = dir.resolve("case-" + c);
      Path copyJob = caseDir.resolve("checkpoints").resolve(jobDirectory.getFileName());
      Path copy = copyJob.resolve(epoch.getFileName());
      copyTree(epoch, copy);
      // The intact copy loads: what follows is refused for the damage alone.
      CompletedCheckpoint.load(copy);

      List<Path> files =
          CheckpointDirs.files(copy).stream().filter(CorruptCheckpointTest::nonEmpty).toList();
      Path damaged = files.get(random.nextInt(files.size()));
      boolean flip = c % 2 == 0;
      String damage = flip ? flipByte(damaged, random) : truncate(damaged, random);
      Path restoreFrom = random.nextBoolean() ? copyJob : copy;

      FaultPipelineMain.Options restore = FaultRuns.options(backend, job, caseDir);
      restore.setCheckpointDir(caseDir.resolve("new-checkpoints").toString());
      restore.setRestoreFrom(restoreFrom.toString());
      Pipeline p = Pipeline.create(restore);
      FaultPipeline.build(p, STREAM, FaultRuns.outputDir(caseDir));
      RuntimeException refusal = assertThrows(RuntimeException.class, p::run, damage);
      String message = messages(refusal);
      System.out.printf(
          "corrupt backend=%s case=%d %s restoreFrom=%s%n  refused: %s%n",
          backend, c, damage, caseDir.relativize(restoreFrom), refusal.getMessage());
      assertTrue(
          message.contains(damaged.toString()),
          "the refusal names the damaged file " + damaged + " (" + damage + "): " + message);
      assertFalse(
          Files.exists(FaultRuns.outputDir(caseDir)),
          "nothing ran from the damaged checkpoint: no output");
      refused++;
    }
    FaultLedger.record("corrupt-checkpoint", backend, refused, "seed=" + seed);
    assertEquals(CASES, refused);
  }

  private static String flipByte(Path file, Random random) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long position = (long) (random.nextDouble() * channel.size());
      ByteBuffer b = ByteBuffer.allocate(1);
      channel.read(b, position);
      b.put(0, (byte) ~b.get(0));
      b.rewind();
      channel.write(b, position);
      return "flipped byte " + position + " of " + file.getFileName();
    }
  }

  private static String truncate(Path file, Random random) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      long size = channel.size();
      long length = (long) (random.nextDouble() * size);
      channel.truncate(length);
      return "truncated " + file.getFileName() + " from " + size + " to " + length + " bytes";
    }
  }

  private static boolean nonEmpty(Path file) {
    try {
      return Files.size(file) > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** The messages of {@code t} and its causes, for what the user sees. */
  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append(" | ");
    }
    return all.toString();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    for (Path file : CheckpointDirs.files(from)) {
      Path target = to.resolve(from.relativize(file).toString());
      Files.createDirectories(target.getParent());
      Files.copy(file, target);
    }
    // Empty directories (instances that had finished) are part of the layout too.
    try (var dirs = Files.walk(from)) {
      for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
        Files.createDirectories(to.resolve(from.relativize(d).toString()));
      }
    }
  }
}
