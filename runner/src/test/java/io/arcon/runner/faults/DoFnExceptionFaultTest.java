package io.arcon.runner.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Exceptions thrown inside the DoFns (the stateless one next to the source and the stateful running
 * totals) at random events: each fails the job attempt, which restarts in process from the newest
 * completed epoch. The output must still be exactly the oracle's.
 */
class DoFnExceptionFaultTest {
  /** Faults per backend. */
  static final int FAULTS = 40;

  @AfterAll
  static void printTotals() {
    DoFnFaults.clear();
    FaultLedger.printTotals();
  }

  @ParameterizedTest(name = "{0}")
  @FieldSource("io.arcon.runner.faults.FaultRuns#BACKENDS")
  void restartsFromTheNewestEpochWithExactlyOnceOutput(
      String backend, @TempDir(factory = MemoryTempDirs.class) Path dir) {
    long seed = 1_400 + FaultRuns.BACKENDS.indexOf(backend);
    Map<Long, DoFnFaults.Site> plan = plan(new Random(seed));
    DoFnFaults.plan(plan);
    int setupsBefore = FaultPipeline.InjectFaults.SETUPS.get();
    long started = System.nanoTime();

    FaultRuns.runToCompletion(
        FaultRuns.options(backend, "dofn_faults_" + backend, dir), FaultRuns.STREAM);

    int thrown = DoFnFaults.thrown();
    int attempts = (FaultPipeline.InjectFaults.SETUPS.get() - setupsBefore) / 2;
    DoFnFaults.clear();
    FaultLedger.record(
        "dofn-exception",
        backend,
        thrown,
        String.format(
            "attempts=%d seed=%d seconds=%.1f",
            attempts, seed, (System.nanoTime() - started) / 1e9));
    FaultRuns.assertExactlyOnce(
        FaultRuns.STREAM, FaultRuns.outputDir(dir), "DoFn exceptions on " + backend);
    assertEquals(FAULTS, thrown, "every planned fault is thrown once (its event is processed)");
    // Two faults can fail one attempt together (one in each instance), so not every fault counts.
    assertTrue(
        attempts > FAULTS / 2 && attempts <= FAULTS + 1,
        "the job restarted after the faults: " + attempts + " attempts for " + thrown + " faults");
  }

  /** FAULTS distinct on-time slots after the first watermark, each at a random site. */
  private static Map<Long, DoFnFaults.Site> plan(Random random) {
    Map<Long, DoFnFaults.Site> plan = new TreeMap<>();
    EventStream stream = FaultRuns.STREAM;
    while (plan.size() < FAULTS) {
      long slot = EventStream.SLACK + random.nextInt((int) (stream.events() - EventStream.SLACK));
      if (stream.kind(slot) == EventStream.Kind.ON_TIME) {
        DoFnFaults.Site[] sites = DoFnFaults.Site.values();
        plan.put(slot, sites[random.nextInt(sites.length)]);
      }
    }
    return plan;
  }
}
