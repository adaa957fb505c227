package io.arcon.benchmarks.nexmark.run;

import io.arcon.benchmarks.nexmark.query.NexmarkQuery;
import io.arcon.benchmarks.nexmark.query.Queries;

/** Runs query {@code Qn} once on a runner: the entry point the benchmark and its tests share. */
public final class QueryRunner {
  private QueryRunner() {}

  /**
   * @param args the command line, for the Beam runners' own options (e.g. {@code --stateBackend})
   */
  public static QueryRun run(RunnerKind runner, int number, RunSettings settings, String[] args) {
    return run(runner, number, settings, args, false);
  }

  /** As {@link #run}, also returning the output records (kept in memory: for small runs). */
  public static QueryRun runCollecting(
      RunnerKind runner, int number, RunSettings settings, String[] args) {
    return run(runner, number, settings, args, true);
  }

  private static QueryRun run(
      RunnerKind runner, int number, RunSettings settings, String[] args, boolean collect) {
    NexmarkQuery query = Queries.get(number);
    String name = "Q" + number;
    if (runner == RunnerKind.FLINK) {
      try {
        return FlinkQueryRun.run(name, query, settings, collect);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(name + " failed on Flink: " + e, e);
      }
    }
    return BeamQueryRun.run(runner, name, query, settings, args, collect);
  }
}
