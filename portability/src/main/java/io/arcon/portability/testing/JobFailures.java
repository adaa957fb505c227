package io.arcon.portability.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;

/**
 * A FAILED job's error as the exception a Java pipeline's author expects from {@code
 * waitUntilFinish}. The SDK harness reports user code errors as text (its stack trace travels over
 * the Fn API and the Job API as a string), so a failed {@code PAssert} arrives as the text of an
 * {@link AssertionError}; it is turned back into one, with the stack frames the text lists (for
 * PAssert, the site of the assertion in the test), so that tests fail with their assertion.
 */
final class JobFailures {
  private static final String ASSERTION_ERROR = AssertionError.class.getName() + ": ";

  /** {@code at pkg.Class.method(File.java:12)}, as {@link Throwable#printStackTrace} writes it. */
  private static final Pattern FRAME =
      Pattern.compile("^\\s*at (?:[\\w.$]+/)?([\\w.$]+)\\.([^.(]+)\\(([^:)]*)(?::(\\d+))?\\)\\s*$");

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
   * name to the first stack frame; the frames up to the next non-frame line become its stack trace.
   */
  static AssertionError assertionIn(String text) {
    int start = text.indexOf(ASSERTION_ERROR);
    if (start < 0) {
      return null;
    }
    String[] lines = text.substring(start + ASSERTION_ERROR.length()).split("\n", -1);
    StringBuilder message = new StringBuilder();
    List<StackTraceElement> frames = new ArrayList<>();
    for (String line : lines) {
      Matcher frame = FRAME.matcher(line);
      if (frame.matches()) {
        frames.add(
            new StackTraceElement(
                frame.group(1),
                frame.group(2),
                frame.group(3).isEmpty() ? null : frame.group(3),
                frame.group(4) == null ? -1 : Integer.parseInt(frame.group(4))));
      } else if (frames.isEmpty()) {
        message.append(message.length() > 0 ? "\n" : "").append(line);
      } else {
        break;
      }
    }
    AssertionError error = new AssertionError(message.toString().strip());
    if (!frames.isEmpty()) {
      error.setStackTrace(frames.toArray(StackTraceElement[]::new));
    }
    return error;
  }

  /** A job that ended FAILED for a reason other than a failed assertion. */
  static final class JobFailedException extends RuntimeException {
    JobFailedException(String jobId, String text) {
      super("Job " + jobId + " failed: " + text);
    }
  }
}
