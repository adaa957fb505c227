package io.arcon.benchmarks.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.query.Queries;
import io.arcon.benchmarks.nexmark.run.Digest;
import io.arcon.benchmarks.nexmark.run.DigestCheck;
import io.arcon.benchmarks.nexmark.run.Mode;
import io.arcon.benchmarks.nexmark.run.NexmarkOptions;
import io.arcon.benchmarks.nexmark.run.RunnerKind;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/** The command's parsing, verification and report, without running pipelines. */
class NexmarkBenchmarkTest {

  private static NexmarkBenchmark.Plan plan(String... args) {
    return NexmarkBenchmark.Plan.of(
        PipelineOptionsFactory.fromArgs(args).as(NexmarkOptions.class), args);
  }

  @Test
  void defaultsRunEveryQueryOnEveryRunnerAtParallelismTwo() {
    NexmarkBenchmark.Plan plan = plan();
    assertEquals(Queries.numbers(), plan.queries);
    assertEquals(List.of(RunnerKind.ARCON, RunnerKind.DIRECT, RunnerKind.FLINK), plan.runners);
    assertEquals(2, plan.settings.parallelism());
    assertEquals(Mode.BATCH, plan.settings.mode());
    assertEquals(plan.warmupEvents, plan.directEvents, "DirectRunner runs verify by default");
    assertEquals(3, plan("--parallelism=3").settings.parallelism());
  }

  @Test
  void streamingEventTimeFollowsTheRate() {
    NexmarkBenchmark.Plan plan = plan("--mode=streaming", "--rate=5000", "--queries=Q5,11");
    assertEquals(5_000, plan.settings.generator().eventsPerSecond());
    assertEquals(List.of(5, 11), plan.queries);
  }

  @Test
  void badFlagsAreRejectedSayingWhatIsAllowed() {
    assertEquals(
        "There is no query 9; the suite has queries 0,1,2,3,4,5,6,7,8,11,12",
        assertThrows(IllegalArgumentException.class, () -> plan("--queries=1,9")).getMessage());
    assertEquals(
        "'x' in --queries is not a query number; use a comma-separated subset of"
            + " 0,1,2,3,4,5,6,7,8,11,12",
        assertThrows(IllegalArgumentException.class, () -> plan("--queries=x")).getMessage());
    assertEquals(
        "--mode must be batch or streaming, got 'fast'",
        assertThrows(IllegalArgumentException.class, () -> plan("--mode=fast")).getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> plan("--runners=arcon,spark"))
            .getMessage()
            .startsWith(
                "Unknown configuration 'spark' in --configurations; use a comma-separated"
                    + " subset of arcon,direct,flink"));
    assertEquals(
        "--runs must be positive, got 0",
        assertThrows(IllegalArgumentException.class, () -> plan("--runs=0")).getMessage());
  }

  @Test
  void digestCheckFailsADifferentOutputAndAMiscountedQ12() {
    DigestCheck check = new DigestCheck();
    Digest digest = new Digest(10, 100, 200, 0);
    assertTrue(check.check(5, RunnerKind.FLINK, 1_000, digest));
    assertTrue(check.check(5, RunnerKind.ARCON, 1_000, new Digest(10, 100, 200, 0)));
    assertTrue(check.check(5, RunnerKind.DIRECT, 2_000, new Digest(20, 1, 2, 0)));
    assertFalse(check.check(5, RunnerKind.ARCON, 1_000, new Digest(10, 101, 200, 0)));
    assertTrue(check.check(12, RunnerKind.ARCON, 1_000, new Digest(3, 9, 9, 920)));
    assertFalse(check.check(12, RunnerKind.FLINK, 1_000, new Digest(3, 9, 9, 919)));
    assertEquals(920, EventGenerator.bidsAmong(1_000));
    List<String> failures = check.failures();
    assertEquals(2, failures.size());
    assertTrue(failures.get(0).startsWith("Q5 over 1,000 events: ArconRunner gave [10 records"));
    assertTrue(failures.get(0).contains("but Flink DataStream gave"));
    assertEquals(
        "Q12 over 1,000 events on Flink DataStream counted 919 bids, but 920 were sent",
        failures.get(1));
  }

  @Test
  void reportGivesRatiosTheirGeometricMeanAndMarksFailures() {
    NexmarkBenchmark.Plan plan = plan("--queries=1,2,4", "--runners=arcon,flink");
    List<Measurement> measurements =
        List.of(
            measured(1, RunnerKind.ARCON, 2_000_000, 1_000_000),
            measured(1, RunnerKind.FLINK, 1_000_000, 1_000_000),
            measured(2, RunnerKind.ARCON, 500_000, 250_000),
            measured(2, RunnerKind.FLINK, 1_000_000, 1_000_000),
            failed(4, RunnerKind.ARCON, "round 1: java.lang.IllegalStateException: boom"),
            measured(4, RunnerKind.FLINK, 1_000, 1_000));
    String report =
        NexmarkReport.render(plan.settings, 0, 0, 2, plan.queries, measurements, List.of(), false);
    assertTrue(report.contains("Q1       2.00x     1.50x"), report);
    assertTrue(report.contains("Q2       0.50x     0.38x"), report);
    assertTrue(report.contains("Q4   n/a (a run failed)"), report);
    assertTrue(report.contains("FAILED: round 1: java.lang.IllegalStateException: boom"), report);
    // sqrt(2.0 * 0.5) = 1.00 (best); sqrt(1.5 * 0.375) = 0.75 (mean)
    assertTrue(
        report.contains("geometric mean over 2 queries: 1.00x (best), 0.75x (mean)"), report);
    assertTrue(report.contains("Q12 is not compared record by record"), report);
    assertTrue(report.contains("Verification: every run's output digest matched"), report);
    assertFalse(report.contains("steady"), report);
  }

  @Test
  void steadyStateRatiosLeaveOutQueriesWithoutASteadyRate() {
    NexmarkBenchmark.Plan plan = plan("--queries=1,2", "--runners=arcon,flink");
    assertTrue(plan.steadyState, "batch mode pairs each run with a short one by default");
    assertFalse(plan("--mode=streaming").steadyState, "a paced run's rate is its pace");
    assertFalse(plan("--steadyState=false").steadyState);
    Measurement arcon1 = measured(1, RunnerKind.ARCON, 1, 1);
    arcon1.steadyRates.addAll(List.of(3_000_000.0, 1_000_000.0));
    Measurement flink1 = measured(1, RunnerKind.FLINK, 1, 1);
    flink1.steadyRates.addAll(List.of(2_000_000.0, Double.NaN));
    Measurement arcon2 = measured(2, RunnerKind.ARCON, 1, 1);
    arcon2.steadyRates.add(Double.NaN);
    Measurement flink2 = measured(2, RunnerKind.FLINK, 1, 1);
    flink2.steadyRates.add(1_000_000.0);
    String report =
        NexmarkReport.render(
            plan.settings,
            0,
            0,
            2,
            plan.queries,
            List.of(arcon1, flink1, arcon2, flink2),
            List.of(),
            true);
    assertTrue(report.contains("steady-state ratio ArconRunner / Flink DataStream"), report);
    // Q1: best 3M / 2M; mean 2M / 2M (Flink's second pair gave no rate).
    assertTrue(report.contains("Q1       1.50x     1.00x"), report);
    assertTrue(report.contains("Q2   n/a (no steady-state rate)"), report);
    assertTrue(
        report.contains("geometric mean over 1 queries: 1.50x (best), 1.00x (mean)"), report);
  }

  private static Measurement measured(int query, RunnerKind runner, double first, double second) {
    Measurement m = new Measurement(query, runner, 1_000);
    m.rates.add(first);
    m.rates.add(second);
    return m;
  }

  private static Measurement failed(int query, RunnerKind runner, String failure) {
    Measurement m = new Measurement(query, runner, 1_000);
    m.failure = failure;
    return m;
  }
}
