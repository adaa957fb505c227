package io.arcon.vr;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.arcon.vr.SuiteSummary.ClassRow;
import io.arcon.vr.SuiteSummary.MethodOutcome;
import io.arcon.vr.SuiteSummary.Outcome;
import io.arcon.vr.SurefireReports.TestResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Runs after Surefire: prints passed / failed / skipped / excluded per test class and in total,
 * writes {@code vr-summary.txt} and {@code vr-summary.json}, and fails the build when a test that
 * is not excluded failed (or, for a full run, did not run at all).
 */
public final class VrSummary {

  static final String TEXT_FILE = "vr-summary.txt";
  static final String JSON_FILE = "vr-summary.json";

  private VrSummary() {}

  public static void main(String[] args) throws IOException {
    CommandLine cli = new CommandLine("VrSummary", args);
    List<Path> jars = cli.paths("jars");
    ExclusionList exclusions = ExclusionList.read(cli.path("exclusions"));
    Path outDir = cli.path("outDir");
    boolean requireAll = cli.flag("requireAll", true);
    String options = cli.required("options");

    List<VrTest> tests =
        VrCatalog.scan(jars, Thread.currentThread().getContextClassLoader()).tests();
    SurefireReports.Reports reports = SurefireReports.read(cli.path("reports"));
    Path inProgress = outDir.resolve(ProgressListener.IN_PROGRESS_FILE);
    Optional<String> hungTest =
        Files.exists(inProgress)
            ? Optional.of(Files.readString(inProgress, StandardCharsets.UTF_8).strip())
            : Optional.empty();

    SuiteSummary summary = SuiteSummary.compute(tests, exclusions, reports.results(), hungTest);
    String text = render(summary, options, reports.seconds(), hungTest);
    StringBuilder flaky = new StringBuilder();
    for (SurefireReports.TestResult r : reports.results()) {
      if (r.status() == SurefireReports.Status.PASSED
          && r.message().startsWith(SurefireReports.FLAKY)) {
        flaky.append("  ").append(r.className()).append('#').append(r.name()).append(": ");
        flaky.append(r.message().substring(SurefireReports.FLAKY.length())).append('\n');
      }
    }
    if (flaky.length() > 0) {
      text += "Passed only when run again (flaky):\n" + flaky;
    }
    Files.createDirectories(outDir);
    Files.writeString(outDir.resolve(TEXT_FILE), text, StandardCharsets.UTF_8);
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(
            outDir.resolve(JSON_FILE).toFile(), toJson(summary, options, reports.seconds()));
    System.out.print(text);

    List<String> problems = new ArrayList<>();
    long failed = summary.count(Outcome.FAILED) + summary.unknownFailures().size();
    if (failed > 0) {
      problems.add(
          failed
              + " ValidatesRunner tests failed; fix the runner or add them to exclusions.txt with"
              + " the reason");
    }
    if (requireAll && summary.count(Outcome.NOT_RUN) > 0) {
      problems.add(
          summary.count(Outcome.NOT_RUN)
              + " ValidatesRunner tests neither ran nor are excluded (see 'not run' in "
              + TEXT_FILE
              + ")");
    }
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          String.join("; ", problems) + ". Details: " + outDir.resolve(TEXT_FILE));
    }
  }

  static String render(
      SuiteSummary summary, String options, double seconds, Optional<String> hungTest) {
    StringBuilder out = new StringBuilder();
    String rule = "-".repeat(110) + "\n";
    out.append(rule)
        .append("ValidatesRunner summary   options: ")
        .append(options)
        .append('\n')
        .append(rule);
    int width =
        summary.classRows().stream()
            .mapToInt(r -> shorten(r.className()).length())
            .max()
            .orElse(10);
    String format = "%-" + Math.max(width, 10) + "s %5s %6s %6s %6s %6s %7s%n";
    out.append(
        String.format(format, "test class", "VR", "passed", "failed", "skip", "excl", "notrun"));
    for (ClassRow row : summary.classRows()) {
      out.append(
          String.format(
              format,
              shorten(row.className()),
              row.total(),
              row.passed(),
              row.failed(),
              row.skipped(),
              row.excluded(),
              row.notRun()));
    }
    out.append(rule);
    out.append(
        String.format(
            format,
            "TOTAL",
            summary.total(),
            summary.count(Outcome.PASSED),
            summary.count(Outcome.FAILED),
            summary.count(Outcome.SKIPPED),
            summary.count(Outcome.EXCLUDED),
            summary.count(Outcome.NOT_RUN)));
    out.append(rule);
    out.append(
        String.format(
            Locale.ROOT,
            "%d of %d ValidatesRunner test methods passed: %d failed, %d skipped, %d excluded,"
                + " %d not run; test time %.1f s%n",
            summary.count(Outcome.PASSED),
            summary.total(),
            summary.count(Outcome.FAILED),
            summary.count(Outcome.SKIPPED),
            summary.count(Outcome.EXCLUDED),
            summary.count(Outcome.NOT_RUN),
            seconds));
    hungTest.ifPresent(
        h ->
            out.append("HUNG: the fork died (timeout or crash) while running ")
                .append(h)
                .append('\n'));

    Map<String, List<String>> causes = summary.failuresByCause();
    if (!causes.isEmpty()) {
      out.append("\nFailures by cause (most common first):\n");
      causes.forEach(
          (cause, names) -> {
            out.append(String.format("  [%d] %s%n", names.size(), cause));
            for (String name : names) {
              out.append("        ").append(name).append('\n');
            }
          });
    }
    List<TestResult> unknown = summary.unknownResults();
    if (!unknown.isEmpty()) {
      out.append("\nResults for tests that are not ValidatesRunner methods in the jars:\n");
      for (TestResult r : unknown) {
        out.append(String.format("  %s#%s %s%n", shorten(r.className()), r.name(), r.status()));
      }
    }
    List<MethodOutcome> notRun = summary.withOutcome(Outcome.NOT_RUN);
    if (!notRun.isEmpty()) {
      out.append("\nNot run (no result and not excluded):\n");
      for (MethodOutcome o : notRun) {
        out.append("  ").append(o.test().displayName()).append('\n');
      }
    }
    out.append(rule);
    return out.toString();
  }

  static Map<String, Object> toJson(SuiteSummary summary, String options, double seconds) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("options", options);
    json.put("testSeconds", seconds);
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("total", summary.total());
    for (Outcome outcome : Outcome.values()) {
      totals.put(camel(outcome), summary.count(outcome));
    }
    totals.put("unknownFailures", summary.unknownFailures().size());
    json.put("totals", totals);
    json.put("classes", summary.classRows());
    List<Map<String, Object>> methods = new ArrayList<>();
    for (MethodOutcome o : summary.outcomes()) {
      Map<String, Object> method = new LinkedHashMap<>();
      method.put("class", o.test().className());
      method.put("method", o.test().methodName());
      method.put("outcome", camel(o.outcome()));
      if (!o.detail().isEmpty()) {
        method.put("detail", o.detail());
      }
      methods.add(method);
    }
    json.put("methods", methods);
    json.put("failuresByCause", summary.failuresByCause());
    return json;
  }

  private static String camel(Outcome outcome) {
    return switch (outcome) {
      case PASSED -> "passed";
      case FAILED -> "failed";
      case SKIPPED -> "skipped";
      case EXCLUDED -> "excluded";
      case NOT_RUN -> "notRun";
    };
  }

  /** Drops Beam's package prefix so the table stays readable. */
  private static String shorten(String className) {
    return className.replace("org.apache.beam.", "");
  }
}
