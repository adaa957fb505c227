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
  private static final String CAUSED_BY = "Caused by: ";

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
   * The {@link AssertionError} in the harness's text: the first one that is a cause (the harness
   * wraps it, e.g. in a {@code UserCodeException}; PAssert's is the one with the assertion's site
   * and reason, whose own cause is the matcher's), else the first one. Its message runs from after
   * the class name to the first stack frame; the frames up to the next non-frame line become its
   * stack trace.
   */
  static AssertionError assertionIn(String text) {
    int start = text.indexOf(CAUSED_BY + ASSERTION_ERROR);
    start = start >= 0 ? start + CAUSED_BY.length() : text.indexOf(ASSERTION_ERROR);
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
      // The error first, the job last: failures with one cause read (and group) alike.
      super(withoutJobPrefix(jobId, text) + "\n(job " + jobId + ")");
    }

    /** The job server's text without its own "Job <id> failed: " lead. */
    private static String withoutJobPrefix(String jobId, String text) {
      String prefix = "Job " + jobId + " failed: ";
      return text.startsWith(prefix) ? text.substring(prefix.length()) : text;
    }
  }
}
