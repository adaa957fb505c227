package io.arcon.portability.execution;

import org.apache.beam.runners.fnexecution.control.DefaultJobBundleFactory;
import org.apache.beam.runners.fnexecution.control.StageBundleFactory;
import org.apache.beam.runners.fnexecution.provisioning.JobInfo;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;

/**
 * A job's connections to its SDK harnesses: one Beam job bundle factory per job (it starts the
 * environments, serves control, data, state, logging, provisioning and artifacts over gRPC, and
 * keeps a harness per environment), shared by every stage instance and closed when the job ends.
 */
public final class JobBundles implements AutoCloseable {
  private final JobInfo jobInfo;
  private DefaultJobBundleFactory factory;
  private boolean closed;

  JobBundles(JobInfo jobInfo) {
    this.jobInfo = jobInfo;
  }

  /** A new bundle factory for one instance of {@code stage}; the caller closes it. */
  synchronized StageBundleFactory forStage(ExecutableStage stage) {
    if (closed) {
      throw new IllegalStateException("The job " + jobInfo.jobName() + " has ended");
    }
    if (factory == null) {
      PipelineOptions options = PipelineOptionsTranslation.fromProto(jobInfo.pipelineOptions());
      factory = DefaultJobBundleFactory.create(jobInfo, Environments.providers(options));
    }
    return factory.forStage(stage);
  }

  @Override
  public synchronized void close() throws Exception {
    closed = true;
    if (factory != null) {
      factory.close();
      factory = null;
    }
  }
}
