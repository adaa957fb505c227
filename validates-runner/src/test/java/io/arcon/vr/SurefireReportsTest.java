package io.arcon.vr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.arcon.vr.SurefireReports.Status;
import io.arcon.vr.SurefireReports.TestResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SurefireReportsTest {

  @TempDir Path dir;

  @Test
  void readsEveryTestCaseWithStatusAndFirstMessageLine() throws Exception {
    Files.writeString(
        dir.resolve("TEST-p.ATest.xml"),
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuite name="p.ATest" time="3.5" tests="4">
          <testcase name="ok" classname="p.ATest" time="1.0"/>
          <testcase name="bad" classname="p.ATest" time="1.5">
            <failure message="expected: 1&#10;but was: 2" type="java.lang.AssertionError">trace</failure>
          </testcase>
          <testcase name="boom" classname="p.ATest" time="0.5">
            <error type="java.lang.IllegalStateException">java.lang.IllegalStateException
        	at p.A.run(A.java:1)</error>
          </testcase>
          <testcase name="off" classname="p.ATest" time="0"><skipped message="ignored"/></testcase>
        </testsuite>
        """);
    Files.writeString(dir.resolve("p.ATest.txt"), "not a report");

    SurefireReports.Reports reports = SurefireReports.read(dir);

    List<TestResult> results =
        reports.results().stream().sorted(Comparator.comparing(TestResult::name)).toList();
    assertEquals(3.5, reports.seconds(), 1e-9);
    assertEquals(
        List.of(
            new TestResult(
                "p.ATest", "bad", Status.FAILED, "java.lang.AssertionError: expected: 1", 1.5),
            new TestResult("p.ATest", "boom", Status.ERROR, "java.lang.IllegalStateException", 0.5),
            new TestResult("p.ATest", "off", Status.SKIPPED, "ignored", 0),
            new TestResult("p.ATest", "ok", Status.PASSED, "", 1.0)),
        results);
  }

  @Test
  void aTestThatPassedOnRerunIsPassedAndMarkedFlaky() throws Exception {
    Files.writeString(
        dir.resolve("TEST-p.BTest.xml"),
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuite name="p.BTest" time="91.0" tests="1">
          <testcase name="slow" classname="p.BTest" time="1.0">
            <flakyFailure message="Pipeline did not finish within 90 s" type="java.lang.AssertionError">trace</flakyFailure>
          </testcase>
        </testsuite>
        """);
    SurefireReports.TestResult r = SurefireReports.read(dir).results().get(0);
    assertEquals(SurefireReports.Status.PASSED, r.status());
    assertEquals(
        SurefireReports.FLAKY + "java.lang.AssertionError: Pipeline did not finish within 90 s",
        r.message());
  }

  @Test
  void missingReportsDirectoryMeansNoResults() throws Exception {
    assertEquals(0, SurefireReports.read(dir.resolve("absent")).results().size());
  }
}
