package io.arcon.benchmarks;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** {@code --steadyState}, for benchmarks that report {@link SteadyStateRate}. */
public interface SteadyStateOptions extends PipelineOptions {
  @Description(
      "Also measure the steady-state rate: each measured run is preceded by a run of a quarter"
          + " of --elements, and the elements beyond it over the extra time are the rate without"
          + " start and stop costs")
  @Default.Boolean(true)
  boolean getSteadyState();

  void setSteadyState(boolean value);
}
