package io.arcon.benchmarks.nexmark;

import io.arcon.benchmarks.ResultsFile;
import io.arcon.benchmarks.SteadyStateRate;
import io.arcon.benchmarks.TimedPipelineRun;
import io.arcon.benchmarks.nexmark.generator.GeneratorConfig;
import io.arcon.benchmarks.nexmark.query.Queries;
import io.arcon.benchmarks.nexmark.run.DigestCheck;
import io.arcon.benchmarks.nexmark.run.Mode;
import io.arcon.benchmarks.nexmark.run.NexmarkOptions;
import io.arcon.benchmarks.nexmark.run.QueryRun;
import io.arcon.benchmarks.nexmark.run.QueryRunner;
import io.arcon.benchmarks.nexmark.run.RunSettings;
import io.arcon.benchmarks.nexmark.run.RunnerKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The Nexmark suite on ArconRunner, DirectRunner (checks off) and native Flink, in one process: for
 * every query, each runner's warm-up run, then {@code --runs} rounds in which every runner runs the
 * query once (rounds, so that a slow phase of the shared machine hits every runner alike). Every
 * run is verified by its output digest against the other runners' before its throughput counts; a
 * run that fails is reported as failing with its error, and the command then exits 1. In batch mode
 * each measured run is preceded by a short run of a quarter of its events, which gives the
 * steady-state rate without start and stop costs ({@link SteadyStateRate}; {@code
 * --steadyState=false} skips it).
 *
 * <pre>
 * mvn -q -o -pl benchmarks -am compile exec:exec \
 *   -Dbenchmark.main=io.arcon.benchmarks.nexmark.NexmarkBenchmark \
 *   -Dbenchmark.args="--queries=0,1,2 --events=2000000 --runs=3"
 * </pre>
 */
public final class NexmarkBenchmark {

  /** The default of {@code --parallelism} here: ArconRunner's own default is every core. */
  static final int DEFAULT_PARALLELISM = 2;

  private NexmarkBenchmark() {}

  public static void main(String[] args) throws IOException {
    NexmarkOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(NexmarkOptions.class);
    Plan plan = Plan.of(options, args);
    List<Measurement> measurements = new ArrayList<>();
    DigestCheck check = new DigestCheck();
    for (int query : plan.queries) {
      measurements.addAll(measureQuery(plan, query, args, check));
    }
    String report =
        NexmarkReport.render(
            plan.settings,
            plan.runners.contains(RunnerKind.DIRECT) ? plan.directEvents : 0,
            plan.warmupEvents,
            plan.rounds,
            plan.queries,
            measurements,
            check.failures(),
            plan.steadyState);
    ResultsFile.publish(report, ResultsFile.chosen(options, "nexmark.txt"), "nexmark");
    boolean failedRun = measurements.stream().anyMatch(m -> m.failure != null);
    if (failedRun || !check.failures().isEmpty()) {
      log("FAILED: %s", failedRun ? "a run failed (see the table)" : "outputs differ");
      System.exit(1);
    }
  }

  /** Warm-up and measured rounds of one query on every runner. */
  static List<Measurement> measureQuery(Plan plan, int query, String[] args, DigestCheck check) {
    List<Measurement> measurements = new ArrayList<>();
    for (RunnerKind runner : plan.runners) {
      measurements.add(new Measurement(query, runner, plan.eventsFor(runner)));
    }
    if (plan.warmupEvents > 0) {
      for (Measurement m : measurements) {
        runOnce(m, plan.settings.withEvents(plan.warmupEvents), args, check, "warm-up");
      }
    }
    if (plan.steadyState) {
      // A short run per runner before the first pair, not measured: the first run after the
      // warm-up still carries the JIT compilers' work on two cores, which shortened nothing but
      // the first short run and so inflated the first round's steady rate.
      for (Measurement m : measurements) {
        runOnce(
            m,
            plan.settings.withEvents(SteadyStateRate.shortElements(m.events)),
            args,
            check,
            "settling run");
      }
    }
    for (int round = 1; round <= plan.rounds; round++) {
      for (Measurement m : measurements) {
        long shortEvents = SteadyStateRate.shortElements(m.events);
        QueryRun shortRun =
            plan.steadyState
                ? runOnce(
                    m,
                    plan.settings.withEvents(shortEvents),
                    args,
                    check,
                    "round " + round + " (short)")
                : null;
        QueryRun run =
            runOnce(m, plan.settings.withEvents(m.events), args, check, "round " + round);
        if (run != null && shortRun != null) {
          double steady =
              SteadyStateRate.of(shortEvents, shortRun.seconds(), m.events, run.seconds());
          m.steadyRates.add(steady);
          log(
              "Q%d %s round %d: steady state %,.0f events/s",
              m.query, m.runner.label, round, steady);
        }
        if (run != null) {
          m.rates.add(m.events / run.seconds());
          if (run.latency() != null) {
            m.latencies.add(run.latency());
          }
        }
      }
    }
    return measurements;
  }

  /**
   * One run, verified; null (and the measurement marked failed) if it threw or gave a wrong output.
   * A runner that failed once is not run again for the query.
   */
  private static QueryRun runOnce(
      Measurement m, RunSettings settings, String[] args, DigestCheck check, String phase) {
    if (m.failure != null) {
      return null;
    }
    try {
      QueryRun run = QueryRunner.run(m.runner, m.query, settings, args);
      log(
          "Q%d %s %s: %,d events in %.2f s = %,.0f events/s; %s%s; heap after GC %,d MB",
          m.query,
          m.runner.label,
          phase,
          settings.events(),
          run.seconds(),
          settings.events() / run.seconds(),
          run.digest(),
          run.latency() == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; latency p50 %.1f ms, p99 %.1f ms",
                  run.latency().p50Millis(),
                  run.latency().p99Millis()),
          TimedPipelineRun.usedHeapAfterGcMb());
      if (!check.check(m.query, m.runner, settings.events(), run.digest())) {
        m.failure = "wrong output (see VERIFICATION FAILED)";
        return null;
      }
      return run;
    } catch (RuntimeException | AssertionError e) {
      m.failure = phase + ": " + rootMessage(e);
      log("Q%d %s %s FAILED: %s", m.query, m.runner.label, phase, e);
      e.printStackTrace();
      return null;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root == e ? String.valueOf(e) : e + " (cause: " + root + ")";
    return message.replace('\n', ' ');
  }

  private static void log(String format, Object... args) {
    System.err.println("[nexmark] " + String.format(Locale.ROOT, format, args));
  }

  /** What the command line asks for, validated. */
  static final class Plan {
    final RunSettings settings;
    final List<Integer> queries;
    final List<RunnerKind> runners;
    final long directEvents;
    final long warmupEvents;
    final int rounds;

    /**
     * Whether each measured run is paired with a short one (batch mode only: streaming is paced).
     */
    final boolean steadyState;

    private Plan(
        RunSettings settings,
        List<Integer> queries,
        List<RunnerKind> runners,
        long directEvents,
        long warmupEvents,
        int rounds,
        boolean steadyState) {
      this.settings = settings;
      this.queries = queries;
      this.runners = runners;
      this.directEvents = directEvents;
      this.warmupEvents = warmupEvents;
      this.rounds = rounds;
      this.steadyState = steadyState;
    }

    static Plan of(NexmarkOptions options, String[] args) {
      if (options.getRuns() <= 0) {
        throw new IllegalArgumentException("--runs must be positive, got " + options.getRuns());
      }
      if (options.getWarmupEvents() < 0) {
        throw new IllegalArgumentException(
            "--warmupEvents must not be negative (0 skips the warm-up), got "
                + options.getWarmupEvents());
      }
      if (options.getDirectEvents() < 0) {
        throw new IllegalArgumentException(
            "--directEvents must not be negative (0: as many as --events), got "
                + options.getDirectEvents());
      }
      Mode mode = Mode.parse(options.getMode());
      // ArconRunner's --parallelism defaults to every core; the benchmark's default is 2.
      boolean parallelismGiven = Arrays.stream(args).anyMatch(a -> a.startsWith("--parallelism="));
      int parallelism = parallelismGiven ? options.getParallelism() : DEFAULT_PARALLELISM;
      GeneratorConfig generator =
          GeneratorConfig.of(
              options.getSeed(),
              mode == Mode.STREAMING ? options.getRate() : options.getEventTimeRate());
      RunSettings settings =
          new RunSettings(
              mode,
              options.getEvents(),
              options.getRate(),
              parallelism,
              generator,
              RunSettings.defaultQueries(generator));
      return new Plan(
          settings,
          Queries.parse(options.getQueries()),
          RunnerKind.parseList(options.getRunners()),
          options.getDirectEvents() == 0 ? options.getEvents() : options.getDirectEvents(),
          options.getWarmupEvents(),
          options.getRuns(),
          options.getSteadyState() && mode == Mode.BATCH);
    }

    /** ArconRunner's --parallelism defaults to every core; the benchmark's default is 2. */
    private static boolean parallelismGiven(String[] args) {
      return Arrays.stream(args).anyMatch(a -> a.startsWith("--parallelism="));
    }

    long eventsFor(RunnerKind runner) {
      return runner == RunnerKind.DIRECT ? directEvents : settings.events();
    }
  }
}
