package io.arcon.benchmarks.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.arcon.benchmarks.nexmark.generator.EventGenerator;
import io.arcon.benchmarks.nexmark.generator.GeneratorConfig;
import io.arcon.benchmarks.nexmark.model.NexmarkResult;
import io.arcon.benchmarks.nexmark.query.Queries;
import io.arcon.benchmarks.nexmark.query.QueryConfig;
import io.arcon.benchmarks.nexmark.run.Digest;
import io.arcon.benchmarks.nexmark.run.Mode;
import io.arcon.benchmarks.nexmark.run.QueryRun;
import io.arcon.benchmarks.nexmark.run.QueryRunner;
import io.arcon.benchmarks.nexmark.run.RunSettings;
import io.arcon.benchmarks.nexmark.run.RunnerKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every query on every runner, at a tiny size, against the oracle: the records each runner emits
 * must be exactly the oracle's (as a multiset), and the digest the run computed inside the pipeline
 * must be the oracle's digest, so equal digests across runners follow.
 */
class NexmarkQueriesTest {
  private static final String[] ARGS = {"--parallelism=2"};
  private static final long EVENTS = 6_000;

  /** 1,000 events per second of event time: 10 s, several windows of each kind. */
  private static final GeneratorConfig GENERATOR = GeneratorConfig.of(7, 1_000);

  /** Small windows, so the tiny input spans many of them and sessions both end and merge. */
  private static final QueryConfig QUERIES =
      new QueryConfig(
          2_000, 1_000, 500, 10_000, new EventGenerator(GENERATOR).maxAuctionDurationMillis());

  static Stream<Integer> queries() {
    return Queries.numbers().stream();
  }

  @ParameterizedTest(name = "Q{0}")
  @MethodSource("queries")
  void everyRunnerEmitsTheOracleOutput(int query) {
    RunSettings settings = new RunSettings(Mode.BATCH, EVENTS, 0, 2, GENERATOR, QUERIES);
    if (!Queries.get(query).outputComparable()) {
      long bids = EventGenerator.bidsAmong(EVENTS);
      for (RunnerKind runner : RunnerKind.values()) {
        QueryRun run = QueryRunner.run(runner, query, settings, ARGS);
        assertEquals(bids, run.digest().countedBids(), runner.label + " must count every bid once");
      }
      return;
    }
    List<? extends NexmarkResult> expected =
        new NexmarkOracle(new EventGenerator(GENERATOR), EVENTS, QUERIES).expected(query);
    assertFalse(expected.isEmpty(), "the tiny input must give Q" + query + " some output");
    for (RunnerKind runner : RunnerKind.values()) {
      QueryRun run = QueryRunner.runCollecting(runner, query, settings, ARGS);
      assertSameRecords(expected, run.outputs(), "Q" + query + " on " + runner.label);
      assertEquals(Digest.of(expected), run.digest(), "Q" + query + " digest on " + runner.label);
    }
  }

  @ParameterizedTest(name = "Q{0}")
  @MethodSource("streamingQueries")
  void pacedStreamGivesTheOracleOutputAndLatencies(int query) {
    long rate = 20_000;
    long events = 3_000;
    GeneratorConfig generator = GeneratorConfig.of(11, rate);
    QueryConfig queries =
        new QueryConfig(
            100, 50, 20, 10_000, new EventGenerator(generator).maxAuctionDurationMillis());
    RunSettings settings = new RunSettings(Mode.STREAMING, events, rate, 2, generator, queries);
    List<? extends NexmarkResult> expected =
        new NexmarkOracle(new EventGenerator(generator), events, queries).expected(query);
    for (RunnerKind runner : RunnerKind.values()) {
      QueryRun run = QueryRunner.runCollecting(runner, query, settings, ARGS);
      assertSameRecords(expected, run.outputs(), "streaming Q" + query + " on " + runner.label);
      assertNotNull(run.latency(), runner.label + " must report latencies");
      assertEquals(expected.size(), run.latency().outputs(), runner.label + ": one per output");
      assertTrue(run.latency().p50Millis() <= run.latency().p99Millis(), run.latency().toString());
    }
  }

  /**
   * A keyed-state join, sliding windows with a second stage, and merging session windows. Not Q7:
   * DirectRunner takes minutes for a side input in streaming, even at this size.
   */
  static Stream<Integer> streamingQueries() {
    return Stream.of(3, 5, 11);
  }

  @Test
  void batchRunsReportNoLatency() {
    RunSettings settings = new RunSettings(Mode.BATCH, 1_000, 0, 2, GENERATOR, QUERIES);
    assertNull(QueryRunner.run(RunnerKind.ARCON, 1, settings, ARGS).latency());
  }

  private static void assertSameRecords(
      List<? extends NexmarkResult> expected, List<NexmarkResult> actual, String what) {
    Map<NexmarkResult, Integer> missing = counts(expected);
    Map<NexmarkResult, Integer> unexpected = new HashMap<>();
    for (NexmarkResult r : actual) {
      Integer left = missing.get(r);
      if (left == null) {
        unexpected.merge(r, 1, Integer::sum);
      } else if (left == 1) {
        missing.remove(r);
      } else {
        missing.put(r, left - 1);
      }
    }
    if (!missing.isEmpty() || !unexpected.isEmpty()) {
      fail(
          String.format(
              "%s: %d records expected, %d emitted; %d expected ones missing (e.g. %s), %d"
                  + " unexpected (e.g. %s)",
              what,
              expected.size(),
              actual.size(),
              missing.values().stream().mapToInt(Integer::intValue).sum(),
              missing.keySet().stream().limit(3).toList(),
              unexpected.values().stream().mapToInt(Integer::intValue).sum(),
              unexpected.keySet().stream().limit(3).toList()));
    }
  }

  private static Map<NexmarkResult, Integer> counts(List<? extends NexmarkResult> records) {
    Map<NexmarkResult, Integer> counts = new HashMap<>();
    records.forEach(r -> counts.merge(r, 1, Integer::sum));
    return counts;
  }
}
