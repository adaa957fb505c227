package io.arcon.portability.execution;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.beam.runners.fnexecution.control.DefaultJobBundleFactory;
import org.apache.beam.runners.fnexecution.control.InstructionRequestHandler;
import org.apache.beam.runners.fnexecution.control.StageBundleFactory;
import org.apache.beam.runners.fnexecution.provisioning.JobInfo;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.util.construction.graph.ExecutableStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's connections to its SDK harnesses: one Beam job bundle factory per job (it starts the
 * environments, serves control, data, state, logging, provisioning and artifacts over gRPC, and
 * keeps a harness per environment), shared by every stage instance and closed when the job ends.
 */
public final class JobBundles implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobBundles.class);

  private final JobInfo jobInfo;
  private final List<StageBundleFactory> stages = new ArrayList<>();
  private DefaultJobBundleFactory factory;
  private boolean closed;
  private boolean aborted;

  JobBundles(JobInfo jobInfo) {
    this.jobInfo = jobInfo;
  }

  /** A new bundle factory for one instance of {@code stage}; the caller closes it. */
  synchronized StageBundleFactory forStage(ExecutableStage stage) {
    if (closed || aborted) {
      throw new IllegalStateException(
          "The job " + jobInfo.jobName() + " has " + (aborted ? "been cancelled" : "ended"));
    }
    if (factory == null) {
      PipelineOptions options = PipelineOptionsTranslation.fromProto(jobInfo.pipelineOptions());
      factory = DefaultJobBundleFactory.create(jobInfo, Environments.providers(options));
    }
    StageBundleFactory stageFactory = factory.forStage(stage);
    stages.add(stageFactory);
    return stageFactory;
  }

  /**
   * Cuts the job off from its SDK harnesses (for a cancel): closes their control connections, which
   * fails the bundles in flight at once. A stage's node thread waits for its open bundle's answer,
   * and the Fn API has no instruction to abandon a bundle, so without this a cancel would wait for
   * user code to finish the bundle (and the runtime gives up on its nodes only after 30 s). A
   * harness whose control stream ends shuts down (a PROCESS harness's process is killed when the
   * job's environments close); user code that is running in an EMBEDDED harness cannot be stopped
   * from outside, but nothing it emits reaches the job any more. Returns at once.
   */
  public void abort() {
    List<InstructionRequestHandler> handlers;
    synchronized (this) {
      if (aborted || closed) {
        return;
      }
      aborted = true;
      Set<InstructionRequestHandler> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
      for (StageBundleFactory stage : stages) {
        distinct.add(stage.getInstructionRequestHandler());
      }
      handlers = List.copyOf(distinct);
    }
    for (InstructionRequestHandler handler : handlers) {
      try {
        handler.close();
      } catch (Exception e) {
        LOG.debug("Closing an SDK harness's control connection on cancel failed", e);
      }
    }
  }

  @Override
  public synchronized void close() throws Exception {
    closed = true;
    stages.clear();
    if (factory != null) {
      factory.close();
      factory = null;
    }
  }
}
