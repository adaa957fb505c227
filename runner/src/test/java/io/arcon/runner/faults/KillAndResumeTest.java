package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Whole JVMs killed with SIGKILL ({@link Process#destroyForcibly} on Linux) at a random moment
 * after they committed an epoch, each resumed by a new JVM with {@code
 * --restoreFrom=<checkpointDir>/<job>}, until one completes. The output must still be exactly the
 * oracle's.
 */
class KillAndResumeTest {
  /** Kills per backend. */
  static final int KILLS = 3;

  /** Longest wait for a process to commit an epoch or to finish: past it, it hangs. */
  private static final long PROCESS_TIMEOUT_SECONDS = 120;

  /** Rounds per backend at most: a round whose process finished before its kills gets another. */
  private static final int MAX_ROUNDS = 3;

  /**
   * JVM options of the killed processes: no module flags, as a user starts a pipeline (lmdb
   * included). C1 only: these short-lived JVMs start faster, and the output does not depend on it.
   */
  private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-Xmx1g");

  @AfterAll
  static void printTotals() {
    FaultLedger.printTotals();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("io.arcon.runner.faults.FaultRuns#BACKENDS")
  void killedProcessesResumeWithExactlyOnceOutput(
      String backend, @TempDir(factory = MemoryTempDirs.class) Path dir) throws Exception {
    long seed = 1_420 + FaultRuns.BACKENDS.indexOf(backend);
    Random random = new Random(seed);
    int kills = 0;
    int processes = 0;
    long started = System.nanoTime();
    for (int round = 0; round < MAX_ROUNDS && kills < KILLS; round++) {
      Path roundDir = dir.resolve("round-" + round);
      String job = "kill_" + backend;
      Path jobDirectory = CheckpointDirs.jobDirectory(FaultRuns.checkpointDir(roundDir), job);
      long resumedFrom = 0;
      while (true) {
        Path log = roundDir.resolve("process-" + processes + ".log");
        Process process = start(backend, job, roundDir, resumedFrom > 0 ? jobDirectory : null, log);
        processes++;
        if (kills < KILLS && awaitOwnEpoch(process, jobDirectory, resumedFrom, log)) {
          Thread.sleep(random.nextInt(250));
          if (process.isAlive()) {
            process.destroyForcibly();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "a killed process ends");
            assertEquals(137, process.exitValue(), "killed by SIGKILL (128 + 9)");
            kills++;
            resumedFrom = CheckpointDirs.newestCompleteEpoch(jobDirectory);
            continue;
          }
        }
        if (!process.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          fail(
              "Process "
                  + log
                  + " did not finish in "
                  + PROCESS_TIMEOUT_SECONDS
                  + " s"
                  + tail(log));
        }
        assertEquals(0, process.exitValue(), "exit code of the last process" + tail(log));
        break;
      }
      FaultRuns.assertExactlyOnce(
          FaultRuns.STREAM,
          FaultRuns.outputDir(roundDir),
          "JVMs killed with SIGKILL on " + backend + " (round " + round + ", seed " + seed + ")");
    }
    FaultLedger.record(
        "jvm-kill-9",
        backend,
        kills,
        String.format(
            "processes=%d seed=%d seconds=%.1f",
            processes, seed, (System.nanoTime() - started) / 1e9));
    assertEquals(KILLS, kills, "processes killed within " + MAX_ROUNDS + " rounds");
  }

  /** Starts {@link FaultPipelineMain} in a new JVM of this test's Java, with its classpath. */
  private static Process start(String backend, String job, Path workDir, Path restoreFrom, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(FaultPipelineMain.class.getName());
    command.addAll(FaultRuns.arguments(backend, job, workDir, FaultRuns.STREAM));
    if (restoreFrom != null) {
      command.add("--restoreFrom=" + restoreFrom);
    }
    Files.createDirectories(workDir);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /**
   * Waits until the process committed an epoch after {@code resumedFrom}; false when the process
   * ended first (it finished its work).
   */
  private static boolean awaitOwnEpoch(
      Process process, Path jobDirectory, long resumedFrom, Path log) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PROCESS_TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      if (CheckpointDirs.newestCompleteEpoch(jobDirectory) > resumedFrom) {
        return true;
      }
      if (!process.isAlive()) {
        return false;
      }
      Thread.sleep(5);
    }
    process.destroyForcibly();
    fail("Process " + log + " committed no epoch in " + PROCESS_TIMEOUT_SECONDS + " s" + tail(log));
    return false;
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "; its log ends:\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "; its log " + log + " cannot be read: " + e;
    }
  }
}
