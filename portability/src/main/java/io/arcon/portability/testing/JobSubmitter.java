package io.arcon.portability.testing;

import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;

/** Where a portable job goes to run. */
interface JobSubmitter {

  /**
   * Submits {@code pipeline} and starts it.
   *
   * @param jobName the job's name as the runner shows it
   * @param options the pipeline options, as {@code PipelineOptionsTranslation.toProto} gives them
   * @return the running job
   */
  PortablePipelineResult submit(String jobName, RunnerApi.Pipeline pipeline, Struct options);
}
