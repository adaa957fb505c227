package io.arcon.runner;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.DefaultValueFactory;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.StreamingOptions;

/** Options of {@link ArconRunner}. */
public interface ArconPipelineOptions extends PipelineOptions, StreamingOptions {

  @Description(
      "Parallel instances of every operator chain. Default: the number of available processors.")
  @Default.InstanceFactory(AvailableProcessors.class)
  Integer getParallelism();

  void setParallelism(Integer parallelism);

  @Description("Maximum number of elements in a bundle before it is finished.")
  @Default.Long(1000)
  Long getMaxBundleSize();

  void setMaxBundleSize(Long size);

  @Description("Maximum time in milliseconds a bundle stays open before it is finished.")
  @Default.Long(1000)
  Long getMaxBundleTimeMills();

  void setMaxBundleTimeMills(Long time);

  /** The default parallelism: one instance per available processor. */
  class AvailableProcessors implements DefaultValueFactory<Integer> {
    @Override
    public Integer create(PipelineOptions options) {
      return Runtime.getRuntime().availableProcessors();
    }
  }
}
