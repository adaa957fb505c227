package io.arcon.runner;

import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.joda.time.Duration;

/**
 * The test runner: runs the pipeline to completion and rethrows the user's failure, with {@code
 * PAssert}'s {@link AssertionError}s surfacing as themselves so tests read naturally. A pipeline
 * that does not finish within the timeout (system property {@code arcon.test.timeoutSeconds},
 * default 300) is cancelled and reported.
 */
public class TestArconRunner extends PipelineRunner<PipelineResult> {
  private final ArconRunner delegate;

  private TestArconRunner(ArconRunner delegate) {
    this.delegate = delegate;
  }

  public static TestArconRunner fromOptions(PipelineOptions options) {
    applyTestDefaults(options);
    return new TestArconRunner(ArconRunner.fromOptions(options));
  }

  /**
   * The defaults of a test runner (this one and the portable one), for the options a test did not
   * set: no TSS registration, no web UI, no execution retries.
   */
  public static void applyTestDefaults(PipelineOptions options) {
    ArconPipelineOptions arcon = options.as(ArconPipelineOptions.class);
    if (arcon.getTss() == null) {
      // Tests run many pipelines side by side; none registers with TSS unless it asks to.
      arcon.setTss("off");
    }
    if (arcon.getWebUi() == null) {
      // Tests run many pipelines; none serves a web UI unless it asks to.
      arcon.setWebUi("off");
    }
    if (arcon.getNumberOfExecutionRetries() == null || arcon.getNumberOfExecutionRetries() == -1) {
      // A test that expects its pipeline to fail wants that failure, not three restarts first.
      arcon.setNumberOfExecutionRetries(0);
    }
  }

  @Override
  public PipelineResult run(Pipeline pipeline) {
    ArconPipelineResult result = delegate.run(pipeline);
    long timeout = Long.getLong("arcon.test.timeoutSeconds", 300);
    try {
      PipelineResult.State state = result.waitUntilFinish(Duration.standardSeconds(timeout));
      if (state == PipelineResult.State.RUNNING) {
        result.cancel();
        throw new AssertionError(
            "Pipeline did not finish within " + timeout + " s (arcon.test.timeoutSeconds)");
      }
      return result;
    } catch (Pipeline.PipelineExecutionException e) {
      if (e.getCause() instanceof AssertionError ae) {
        throw ae;
      }
      throw e;
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
