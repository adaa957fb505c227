package io.arcon.benchmarks.nexmark;

import io.arcon.benchmarks.nexmark.query.Queries;
import io.arcon.benchmarks.nexmark.run.Mode;
import io.arcon.benchmarks.nexmark.run.RunSettings;
import io.arcon.benchmarks.nexmark.run.RunnerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The benchmark's report: throughput (and latency) per query and runner, ratios, verification. */
final class NexmarkReport {
  private NexmarkReport() {}

  /**
   * @param directEvents events of DirectRunner's measured runs, 0 if it did not run
   * @param steadyState whether each measured run was paired with a short one, whose steady-state
   *     rates get a table and ratios of their own
   */
  static String render(
      RunSettings settings,
      long directEvents,
      long warmupEvents,
      int rounds,
      List<Integer> queries,
      List<Measurement> measurements,
      List<String> verificationFailures,
      boolean steadyState) {
    StringBuilder out = new StringBuilder();
    boolean streaming = settings.mode() == Mode.STREAMING;
    out.append(
        String.format(
            Locale.ROOT,
            "Nexmark (%s%s): %,d events%s, warm-up %,d events, %d measured"
                + " round(s), parallelism %d, seed %d, %d available processors, Java %s%n",
            settings.mode(),
            streaming ? String.format(Locale.ROOT, " at %,d events/s", settings.rate()) : "",
            settings.events(),
            directEvents > 0 && directEvents != settings.events()
                ? String.format(Locale.ROOT, " (DirectRunner: %,d)", directEvents)
                : "",
            warmupEvents,
            rounds,
            settings.parallelism(),
            settings.generator().seed(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version")));
    for (int q : queries) {
      out.append(String.format(Locale.ROOT, "  Q%-3d %s%n", q, Queries.get(q).description()));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%-5s %-52s %14s %14s%s%n",
            "query",
            "runner",
            "best events/s",
            "mean events/s",
            streaming ? String.format(Locale.ROOT, " %10s %10s", "p50 ms", "p99 ms") : ""));
    for (Measurement m : measurements) {
      String name = "Q" + m.query;
      if (!m.ok()) {
        out.append(
            String.format(Locale.ROOT, "%-5s %-52s FAILED: %s%n", name, m.runner.label, m.failure));
        continue;
      }
      String latency = "";
      if (streaming) {
        latency =
            m.latencies.isEmpty()
                ? String.format(Locale.ROOT, " %10s %10s", "n/a", "n/a")
                : String.format(Locale.ROOT, " %10.1f %10.1f", m.p50Millis(), m.p99Millis());
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-5s %-52s %,14.0f %,14.0f%s%n",
              name,
              m.runner.label,
              m.best(),
              m.mean(),
              latency));
    }
    appendRatios(
        out, queries, measurements, RunnerKind.FLINK, "", Measurement::best, Measurement::mean);
    appendRatios(
        out, queries, measurements, RunnerKind.DIRECT, "", Measurement::best, Measurement::mean);
    if (steadyState) {
      appendSteadyState(out, queries, measurements);
    }
    out.append(
        "Q12 is not compared record by record: its windows close in processing time, so which"
            + " bids share a window depends on how fast each runner runs; its runs are checked by"
            + " the total of their counts (every bid sent, once)");
    out.append(streaming ? ", and it has no latency (its outputs carry no event time).\n" : ".\n");
    if (verificationFailures.isEmpty()) {
      out.append(
          "Verification: every run's output digest matched the other runners' over the same"
              + " events.\n");
    } else {
      out.append("VERIFICATION FAILED:\n");
      verificationFailures.forEach(f -> out.append("  ").append(f).append('\n'));
    }
    return out.toString();
  }

  /**
   * The steady-state rates (each measured run against the short run before it, start and stop left
   * out), per query and runner, and ArconRunner's ratios on them.
   */
  private static void appendSteadyState(
      StringBuilder out, List<Integer> queries, List<Measurement> measurements) {
    out.append(
        "steady state: each measured run was preceded by a run of a quarter of its events (and"
            + " the first round by one more such run, not measured, so the JIT compilers have"
            + " settled); steady events/s = (events - events/4) / (measured s - short s), which leaves out"
            + " what starting and stopping cost (a local Flink MiniCluster about 0.9 s here);"
            + " n/a where no round's long run took longer than its short run\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%-5s %-52s %14s %14s%n",
            "query",
            "runner",
            "steady best",
            "steady mean"));
    for (Measurement m : measurements) {
      if (!m.ok()) {
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-5s %-52s %14s %14s%n",
              "Q" + m.query,
              m.runner.label,
              rate(m.steadyBest()),
              rate(m.steadyMean())));
    }
    appendRatios(
        out,
        queries,
        measurements,
        RunnerKind.FLINK,
        "steady-state ",
        Measurement::steadyBest,
        Measurement::steadyMean);
    appendRatios(
        out,
        queries,
        measurements,
        RunnerKind.DIRECT,
        "steady-state ",
        Measurement::steadyBest,
        Measurement::steadyMean);
  }

  private static String rate(double eventsPerSecond) {
    return Double.isNaN(eventsPerSecond)
        ? "n/a"
        : String.format(Locale.ROOT, "%,.0f", eventsPerSecond);
  }

  /**
   * ArconRunner's throughput over {@code baseline}'s per query, and their geometric means over the
   * queries where both have a rate.
   */
  private static void appendRatios(
      StringBuilder out,
      List<Integer> queries,
      List<Measurement> measurements,
      RunnerKind baseline,
      String kind,
      ToDoubleFunction<Measurement> bestOf,
      ToDoubleFunction<Measurement> meanOf) {
    List<double[]> ratios = new ArrayList<>();
    StringBuilder rows = new StringBuilder();
    for (int q : queries) {
      Measurement arcon = find(measurements, q, RunnerKind.ARCON);
      Measurement other = find(measurements, q, baseline);
      if (arcon == null || other == null) {
        continue;
      }
      if (!arcon.ok() || !other.ok()) {
        rows.append(String.format(Locale.ROOT, "  Q%-3d %s%n", q, "n/a (a run failed)"));
        continue;
      }
      double best = bestOf.applyAsDouble(arcon) / bestOf.applyAsDouble(other);
      double mean = meanOf.applyAsDouble(arcon) / meanOf.applyAsDouble(other);
      if (Double.isNaN(best) || Double.isNaN(mean)) {
        rows.append(String.format(Locale.ROOT, "  Q%-3d %s%n", q, "n/a (no steady-state rate)"));
        continue;
      }
      ratios.add(new double[] {best, mean});
      rows.append(String.format(Locale.ROOT, "  Q%-3d %8.2fx %8.2fx%n", q, best, mean));
    }
    if (rows.length() == 0) {
      return;
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%sratio ArconRunner / %s (events/s, best and mean):%n",
            kind,
            baseline.label));
    out.append(rows);
    if (!ratios.isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "  geometric mean over %d queries: %.2fx (best), %.2fx (mean)%n",
              ratios.size(),
              geometricMean(ratios, 0),
              geometricMean(ratios, 1)));
    }
  }

  static double geometricMean(List<double[]> ratios, int column) {
    double logSum = 0;
    for (double[] r : ratios) {
      logSum += Math.log(r[column]);
    }
    return Math.exp(logSum / ratios.size());
  }

  private static Measurement find(List<Measurement> measurements, int query, RunnerKind runner) {
    for (Measurement m : measurements) {
      if (m.query == query && m.runner == runner) {
        return m;
      }
    }
    return null;
  }
}
