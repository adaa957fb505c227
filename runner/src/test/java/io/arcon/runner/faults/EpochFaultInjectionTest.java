package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Nodes stopped mid-epoch through the runner's {@code EpochFaultInjector}: before a random vertex's
 * snapshot of a random epoch (markers of some inputs in, nothing written) or after its snapshot and
 * marker went out but before it acknowledged. The attempt fails and restarts from the newest
 * completed epoch; the output must still be exactly the oracle's.
 */
class EpochFaultInjectionTest {
  /** Faults per backend. */
  static final int FAULTS = 52;

  /** Runs per backend at most: a run that ends before its budget is spent gets a successor. */
  private static final int MAX_RUNS = 6;

  @AfterAll
  static void printTotals() {
    FaultLedger.printTotals();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("io.arcon.runner.faults.FaultRuns#BACKENDS")
  void nodesStoppedMidEpochRestartWithExactlyOnceOutput(
      String backend, @TempDir(factory = MemoryTempDirs.class) Path dir) {
    DoFnFaults.clear();
    int injected = 0;
    int attempts = 0;
    Map<RandomEpochFaults.Hook, Integer> byHook = new TreeMap<>();
    Map<String, Integer> byVertex = new TreeMap<>();
    long started = System.nanoTime();
    for (int run = 0; run < MAX_RUNS && injected < FAULTS; run++) {
      long seed = 1_410 + 10L * FaultRuns.BACKENDS.indexOf(backend) + run;
      RandomEpochFaults faults = new RandomEpochFaults(seed, FAULTS - injected);
      Path runDir = dir.resolve("run-" + run);
      FaultPipelineMain.Options options =
          FaultRuns.options(backend, "epoch_faults_" + backend, runDir);
      options.setEpochFaultInjector(faults);
      int setupsBefore = FaultPipeline.InjectFaults.SETUPS.get();

      FaultRuns.runToCompletion(options, FaultRuns.STREAM);

      FaultRuns.assertExactlyOnce(
          FaultRuns.STREAM,
          FaultRuns.outputDir(runDir),
          "nodes stopped mid-epoch on " + backend + " (run " + run + ", seed " + seed + ")");
      for (RandomEpochFaults.Fault f : faults.thrown()) {
        byHook.merge(f.hook(), 1, Integer::sum);
        byVertex.merge(f.vertex(), 1, Integer::sum);
      }
      injected += faults.thrown().size();
      attempts += (FaultPipeline.InjectFaults.SETUPS.get() - setupsBefore) / 2;
    }
    FaultLedger.record(
        "node-stopped-mid-epoch",
        backend,
        injected,
        String.format(
            "attempts=%d byHook=%s vertices=%d seconds=%.1f",
            attempts, byHook, byVertex.size(), (System.nanoTime() - started) / 1e9));
    System.out.println(
        "  faults by vertex: "
            + byVertex.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", ")));
    assertEquals(FAULTS, injected, "faults injected within " + MAX_RUNS + " runs");
    assertEquals(2, byHook.size(), "both hooks failed nodes: " + byHook);
    assertTrue(attempts > injected / 2, attempts + " attempts for " + injected + " faults");
  }
}
