package io.arcon.portability.testing;

import org.apache.beam.sdk.Pipeline;

/**
 * A FAILED job's error as the exception a Java pipeline's author expects from {@code
 * waitUntilFinish}. The SDK harness reports user code errors as text (its stack trace travels over
 * the Fn API and the Job API as a string), so a failed {@code PAssert} arrives as the text of an
 * {@link AssertionError}; it is turned back into one so that tests fail with their assertion.
 */
final class JobFailures {
  private static final String ASSERTION_ERROR = AssertionError.class.getName() + ": ";

  private JobFailures() {}

  /** The exception for a job that ended FAILED with {@code errorText} (may be empty). */
  static Pipeline.PipelineExecutionException failed(String jobId, String errorText) {
    String text =
        errorText == null || errorText.isBlank()
            ? "Job " + jobId + " failed; the job server reported no error message."
            : errorText;
    AssertionError assertion = assertionIn(text);
    Throwable cause = assertion != null ? assertion : new JobFailedException(jobId, text);
    return new Pipeline.PipelineExecutionException(cause);
  }

  /**
   * The first {@link AssertionError} in the harness's text: its message runs from after the class
   * name to the first stack frame.
   */
  static AssertionError assertionIn(String text) {
    int start = text.indexOf(ASSERTION_ERROR);
    if (start < 0) {
      return null;
    }
    String message = text.substring(start + ASSERTION_ERROR.length());
    int frame = message.indexOf("\n\tat ");
    if (frame < 0) {
      frame = message.indexOf("\n        at ");
    }
    if (frame >= 0) {
      message = message.substring(0, frame);
    }
    return new AssertionError(message.strip());
  }

  /** A job that ended FAILED for a reason other than a failed assertion. */
  static final class JobFailedException extends RuntimeException {
    JobFailedException(String jobId, String text) {
      super("Job " + jobId + " failed: " + text);
    }
  }
}
