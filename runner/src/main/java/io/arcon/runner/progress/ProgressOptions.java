package io.arcon.runner.progress;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.io.PrintStream;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Hidden;
import org.apache.beam.sdk.options.PipelineOptions;

/** Options of the job's progress lines; {@link ProgressSettings} checks them. */
public interface ProgressOptions extends PipelineOptions {

  @Description(
      "Progress of the job on the console: every --progressPeriodMillis a line with the elements"
          + " and bytes its sources read against their estimated size, and one when the job ends."
          + " Lines go to stderr, so stdout stays the pipeline's output. auto (default): only when"
          + " stdout is a terminal; on: always; off: never.")
  @Default.String("auto")
  String getProgress();

  void setProgress(String mode);

  @Description("Milliseconds between two progress lines (at least 100).")
  @Default.Long(5000)
  Long getProgressPeriodMillis();

  void setProgressPeriodMillis(Long periodMillis);

  /**
   * Where progress lines go instead of stderr, for programs that embed a job and for tests; not a
   * command-line option.
   */
  @JsonIgnore
  @Hidden
  PrintStream getProgressStream();

  void setProgressStream(PrintStream out);
}
