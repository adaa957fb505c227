package io.arcon.vr;

import io.arcon.vr.SurefireReports.Status;
import io.arcon.vr.SurefireReports.TestResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Joins the catalog of ValidatesRunner tests, the exclusions and Surefire's results into one
 * outcome per test method, per class and in total.
 */
final class SuiteSummary {

  enum Outcome {
    PASSED,
    FAILED,
    SKIPPED,
    EXCLUDED,
    NOT_RUN
  }

  /** A test method's outcome; {@code detail} is the failure, skip or exclusion reason. */
  record MethodOutcome(VrTest test, Outcome outcome, String detail) {}

  /** Counts for one test class. */
  record ClassRow(
      String className, int total, int passed, int failed, int skipped, int excluded, int notRun) {}

  private final List<MethodOutcome> outcomes;
  private final List<TestResult> unknownResults;

  private SuiteSummary(List<MethodOutcome> outcomes, List<TestResult> unknownResults) {
    this.outcomes = List.copyOf(outcomes);
    this.unknownResults = List.copyOf(unknownResults);
  }

  /**
   * @param hungTest the test that was running when the fork died, if any
   */
  static SuiteSummary compute(
      List<VrTest> tests,
      ExclusionList exclusions,
      List<TestResult> results,
      Optional<String> hungTest) {
    Map<String, List<TestResult>> resultsByTest = new HashMap<>();
    for (TestResult result : results) {
      resultsByTest
          .computeIfAbsent(key(result.className(), result.name()), k -> new ArrayList<>())
          .add(result);
    }
    List<MethodOutcome> outcomes = new ArrayList<>();
    for (VrTest test : tests) {
      String key = key(test.className(), test.methodName());
      List<TestResult> instances = resultsByTest.remove(key);
      Optional<ExclusionList.Entry> exclusion =
          exclusions.match(test.className(), test.methodName(), test.categories());
      if (exclusion.isPresent() && instances == null) {
        outcomes.add(new MethodOutcome(test, Outcome.EXCLUDED, exclusion.get().reason()));
      } else if (instances == null) {
        boolean hung = hungTest.map(h -> h.startsWith(key)).orElse(false);
        outcomes.add(
            hung
                ? new MethodOutcome(
                    test,
                    Outcome.FAILED,
                    "hung: the test fork was killed (timeout or crash) while this test ran")
                : new MethodOutcome(test, Outcome.NOT_RUN, ""));
      } else {
        outcomes.add(aggregate(test, instances));
      }
    }
    List<TestResult> unknown = new ArrayList<>();
    resultsByTest.values().forEach(unknown::addAll);
    unknown.sort(Comparator.comparing(TestResult::className).thenComparing(TestResult::name));
    return new SuiteSummary(outcomes, unknown);
  }

  /** Parameterized instances of one method: any failure fails it; all skipped skips it. */
  private static MethodOutcome aggregate(VrTest test, List<TestResult> instances) {
    for (TestResult instance : instances) {
      if (instance.status() == Status.FAILED || instance.status() == Status.ERROR) {
        return new MethodOutcome(test, Outcome.FAILED, instance.message());
      }
    }
    boolean allSkipped = instances.stream().allMatch(i -> i.status() == Status.SKIPPED);
    return allSkipped
        ? new MethodOutcome(test, Outcome.SKIPPED, instances.get(0).message())
        : new MethodOutcome(test, Outcome.PASSED, "");
  }

  private static String key(String className, String methodName) {
    return className + "#" + ExclusionList.stripParameters(methodName);
  }

  List<MethodOutcome> outcomes() {
    return outcomes;
  }

  /** Results Surefire reported that are not catalog methods (e.g. a class-level failure). */
  List<TestResult> unknownResults() {
    return unknownResults;
  }

  List<TestResult> unknownFailures() {
    return unknownResults.stream()
        .filter(r -> r.status() == Status.FAILED || r.status() == Status.ERROR)
        .toList();
  }

  long count(Outcome outcome) {
    return outcomes.stream().filter(o -> o.outcome() == outcome).count();
  }

  int total() {
    return outcomes.size();
  }

  List<MethodOutcome> withOutcome(Outcome outcome) {
    return outcomes.stream().filter(o -> o.outcome() == outcome).toList();
  }

  List<ClassRow> classRows() {
    Map<String, int[]> counts = new TreeMap<>();
    for (MethodOutcome o : outcomes) {
      int[] c = counts.computeIfAbsent(o.test().className(), k -> new int[Outcome.values().length]);
      c[o.outcome().ordinal()]++;
    }
    List<ClassRow> rows = new ArrayList<>();
    counts.forEach(
        (className, c) ->
            rows.add(
                new ClassRow(
                    className,
                    c[0] + c[1] + c[2] + c[3] + c[4],
                    c[Outcome.PASSED.ordinal()],
                    c[Outcome.FAILED.ordinal()],
                    c[Outcome.SKIPPED.ordinal()],
                    c[Outcome.EXCLUDED.ordinal()],
                    c[Outcome.NOT_RUN.ordinal()])));
    return rows;
  }

  /** Failed methods grouped by their first message line, most common cause first. */
  Map<String, List<String>> failuresByCause() {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    for (MethodOutcome o : withOutcome(Outcome.FAILED)) {
      groups.computeIfAbsent(cause(o.detail()), k -> new ArrayList<>()).add(o.test().displayName());
    }
    for (TestResult r : unknownFailures()) {
      groups
          .computeIfAbsent(cause(r.message()), k -> new ArrayList<>())
          .add(ExclusionList.simpleName(r.className()) + "#" + r.name());
    }
    List<Map.Entry<String, List<String>>> sorted = new ArrayList<>(groups.entrySet());
    sorted.sort(Collections.reverseOrder(Comparator.comparingInt(e -> e.getValue().size())));
    Map<String, List<String>> result = new LinkedHashMap<>();
    sorted.forEach(e -> result.put(e.getKey(), e.getValue()));
    return result;
  }

  /** Messages often embed ids and values; the first 200 characters identify a cause well. */
  private static String cause(String message) {
    String line = SurefireReports.firstLine(message);
    if (line.isEmpty()) {
      return "(no message)";
    }
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }
}
