package io.arcon.portability.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.Test;

/** The harness's error text back into the exception a Java pipeline's author expects. */
class JobFailuresTest {
  private static final String HARNESS_TEXT =
      "java.util.concurrent.ExecutionException: java.lang.RuntimeException: Error received from SDK"
          + " harness for instruction 4: org.apache.beam.sdk.util.UserCodeException:"
          + " java.lang.AssertionError: Count/ParMultiDo(X).output: \n"
          + "Expected: iterable with items [<1>] in any order\n"
          + "     but: no match for: <2>\n"
          + "\tat org.apache.beam.sdk.util.UserCodeException.wrap(UserCodeException.java:39)\n"
          + "\tat org.apache.beam.fn.harness.FnApiDoFnRunner.outputTo(FnApiDoFnRunner.java:1332)\n"
          + "Caused by: java.lang.AssertionError: Count/ParMultiDo(X).output: \n"
          + "Expected: iterable with items [<1>] in any order\n"
          + "     but: no match for: <2>\n"
          + "\tat org.apache.beam.sdk.testing.PAssert$PAssertionSite.capture(PAssert.java:175)\n"
          + "\tat org.example.MyTest.assertThatTheCountIsOne(MyTest.java:42)\n"
          + "\tat java.base/java.lang.Thread.run(Thread.java:840)\n"
          + "Caused by: java.lang.AssertionError: Expected: iterable with items [<1>] in any order\n"
          + "\tat org.hamcrest.MatcherAssert.assertThat(MatcherAssert.java:20)\n"
          + "\t... 12 more\n";

  @Test
  void aFailedAssertionBecomesAnAssertionErrorWithItsMessageAndSite() {
    Pipeline.PipelineExecutionException e = JobFailures.failed("job-1", HARNESS_TEXT);

    AssertionError assertion = assertInstanceOf(AssertionError.class, e.getCause());
    assertEquals(
        "Count/ParMultiDo(X).output: \nExpected: iterable with items [<1>] in any order\n"
            + "     but: no match for: <2>",
        assertion.getMessage());
    StackTraceElement[] frames = assertion.getStackTrace();
    assertEquals(3, frames.length);
    assertEquals("org.example.MyTest", frames[1].getClassName());
    assertEquals("assertThatTheCountIsOne", frames[1].getMethodName());
    assertEquals("MyTest.java", frames[1].getFileName());
    assertEquals(42, frames[1].getLineNumber());
    assertEquals("java.lang.Thread", frames[2].getClassName());
  }

  @Test
  void anyOtherFailureKeepsTheServersTextWithoutItsJobPrefix() {
    Pipeline.PipelineExecutionException e =
        JobFailures.failed("job-2", "Job job-2 failed: java.lang.IllegalStateException: boom");

    assertInstanceOf(JobFailures.JobFailedException.class, e.getCause());
    assertEquals("java.lang.IllegalStateException: boom\n(job job-2)", e.getCause().getMessage());
    assertNull(JobFailures.assertionIn("java.lang.IllegalStateException: boom"));
  }

  @Test
  void aFailureWithoutTextSaysSo() {
    Pipeline.PipelineExecutionException e = JobFailures.failed("job-3", "");

    assertTrue(e.getCause().getMessage().contains("no error message"), e.getCause().getMessage());
  }
}
