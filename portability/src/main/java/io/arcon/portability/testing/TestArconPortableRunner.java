package io.arcon.portability.testing;

import io.arcon.runner.TestArconRunner;
import java.io.IOException;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.joda.time.Duration;

/**
 * The test runner of {@link ArconPortableRunner}: runs the pipeline through the Job API to the end
 * and rethrows its failure, a failed {@code PAssert} as its {@link AssertionError}. A pipeline
 * still running after the timeout (system property {@code arcon.test.timeoutSeconds}, default 300)
 * is cancelled and reported.
 */
public class TestArconPortableRunner extends PipelineRunner<PipelineResult> {
  private final ArconPortableRunner delegate;

  private TestArconPortableRunner(ArconPortableRunner delegate) {
    this.delegate = delegate;
  }

  public static TestArconPortableRunner fromOptions(PipelineOptions options) {
    // These options travel to the job server, whose ArconRunner reads them.
    TestArconRunner.applyTestDefaults(options);
    return new TestArconPortableRunner(ArconPortableRunner.fromOptions(options));
  }

  @Override
  public PipelineResult run(Pipeline pipeline) {
    PortablePipelineResult result = delegate.run(pipeline);
    long timeout = Long.getLong("arcon.test.timeoutSeconds", 300);
    try {
      PipelineResult.State state = result.waitUntilFinish(Duration.standardSeconds(timeout));
      if (state == PipelineResult.State.RUNNING || state == PipelineResult.State.STOPPED) {
        printThreads(result.jobId(), timeout);
        cancelQuietly(result);
        throw new AssertionError(
            "Pipeline (job "
                + result.jobId()
                + ") did not finish within "
                + timeout
                + " s (arcon.test.timeoutSeconds)");
      }
      return result;
    } catch (Pipeline.PipelineExecutionException e) {
      if (e.getCause() instanceof AssertionError ae) {
        throw ae;
      }
      throw e;
    }
  }

  /**
   * Where every thread of this JVM was when the job hung (the job server and the EMBEDDED harness
   * run here too), for whoever reads the test's output.
   */
  private static void printThreads(String jobId, long timeout) {
    StringBuilder dump = new StringBuilder();
    dump.append("Job ")
        .append(jobId)
        .append(" still running after ")
        .append(timeout)
        .append(" s; threads before cancelling it:\n");
    for (var entry : Thread.getAllStackTraces().entrySet()) {
      Thread thread = entry.getKey();
      dump.append('"')
          .append(thread.getName())
          .append("\" ")
          .append(thread.getState())
          .append('\n');
      for (StackTraceElement frame : entry.getValue()) {
        dump.append("\tat ").append(frame).append('\n');
      }
    }
    System.err.print(dump);
  }

  private static void cancelQuietly(PipelineResult result) {
    try {
      result.cancel();
    } catch (IOException | RuntimeException e) {
      // The timeout is the failure to report; the job server logs why cancelling failed.
    }
  }
}
