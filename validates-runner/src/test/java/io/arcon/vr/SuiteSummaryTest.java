package io.arcon.vr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.vr.SuiteSummary.ClassRow;
import io.arcon.vr.SuiteSummary.Outcome;
import io.arcon.vr.SurefireReports.Status;
import io.arcon.vr.SurefireReports.TestResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SuiteSummaryTest {

  private static final String A = "p.ATest";
  private static final String B = "p.BTest$Inner";

  private static VrTest vr(String className, String method) {
    return new VrTest(className, method, List.of(VrCatalog.VALIDATES_RUNNER));
  }

  private static TestResult result(String className, String name, Status status, String msg) {
    return new TestResult(className, name, status, msg, 0.1);
  }

  private final List<VrTest> catalog =
      List.of(
          vr(A, "passes"),
          vr(A, "fails"),
          vr(A, "skipped"),
          vr(A, "excluded"),
          vr(B, "param"),
          vr(B, "neverRan"),
          vr(B, "errors"));

  private final ExclusionList exclusions =
      ExclusionList.parse(List.of("ATest#excluded  # runner bug: x"), "exclusions.txt");

  private final List<TestResult> results =
      List.of(
          result(A, "passes", Status.PASSED, ""),
          result(A, "fails", Status.FAILED, "java.lang.AssertionError: expected 1"),
          result(A, "skipped", Status.SKIPPED, "ignored"),
          result(B, "param[0]", Status.PASSED, ""),
          result(B, "param[1]", Status.FAILED, "java.lang.AssertionError: expected 1"),
          result(B, "errors", Status.ERROR, "java.lang.IllegalStateException: boom"),
          result("p.Other", "classLevel", Status.ERROR, "java.lang.RuntimeException: setup"));

  @Test
  void classifiesEveryCatalogMethodExactlyOnce() {
    SuiteSummary summary = SuiteSummary.compute(catalog, exclusions, results, Optional.empty());

    assertEquals(7, summary.total());
    assertEquals(1, summary.count(Outcome.PASSED));
    assertEquals(3, summary.count(Outcome.FAILED));
    assertEquals(1, summary.count(Outcome.SKIPPED));
    assertEquals(1, summary.count(Outcome.EXCLUDED));
    assertEquals(1, summary.count(Outcome.NOT_RUN));
    assertEquals("runner bug: x", summary.withOutcome(Outcome.EXCLUDED).get(0).detail());
  }

  @Test
  void perClassRowsAddUp() {
    SuiteSummary summary = SuiteSummary.compute(catalog, exclusions, results, Optional.empty());

    assertEquals(
        List.of(new ClassRow(A, 4, 1, 1, 1, 1, 0), new ClassRow(B, 3, 0, 2, 0, 0, 1)),
        summary.classRows());
  }

  @Test
  void failuresAreGroupedByCauseMostCommonFirstIncludingUnknownResults() {
    SuiteSummary summary = SuiteSummary.compute(catalog, exclusions, results, Optional.empty());

    Map<String, List<String>> causes = summary.failuresByCause();
    var first = causes.entrySet().iterator().next();
    assertEquals("java.lang.AssertionError: expected 1", first.getKey());
    assertEquals(List.of("ATest#fails", "BTest$Inner#param"), first.getValue());
    assertEquals(List.of("Other#classLevel"), causes.get("java.lang.RuntimeException: setup"));
    assertEquals(1, summary.unknownFailures().size());
  }

  @Test
  void testRunningWhenTheForkDiedIsAFailureNotAMissingResult() {
    SuiteSummary summary =
        SuiteSummary.compute(
            catalog, exclusions, results, Optional.of(B + "#neverRan\t2026-12-02T13:00:00Z"));

    assertEquals(0, summary.count(Outcome.NOT_RUN));
    assertEquals(4, summary.count(Outcome.FAILED));
    assertTrue(summary.failuresByCause().keySet().stream().anyMatch(k -> k.startsWith("hung:")));
  }

  @Test
  void renderedTextShowsTotalsAndNOfM() {
    SuiteSummary summary = SuiteSummary.compute(catalog, exclusions, results, Optional.empty());

    String text = VrSummary.render(summary, "[\"--runner=X\"]", 12.5, Optional.empty());

    assertTrue(text.contains("1 of 7 ValidatesRunner test methods passed"), text);
    assertTrue(text.contains("BTest$Inner#neverRan"), text);
    assertTrue(text.contains("[2] java.lang.AssertionError: expected 1"), text);
  }
}
