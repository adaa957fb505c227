package io.arcon.portability.testing;

import io.arcon.portability.execution.PortableJob;
import io.arcon.portability.execution.PortableJobSpec;
import io.arcon.portability.execution.PortablePipelineExecutor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;

/**
 * Hands jobs straight to {@link PortablePipelineExecutor} in this JVM, without a job server: the
 * same proto and options as over gRPC, minus the Job API. Used when no job server class is on the
 * class path.
 */
final class DirectJobSubmitter implements JobSubmitter {

  @Override
  public PortablePipelineResult submit(String jobName, RunnerApi.Pipeline pipeline, Struct options) {
    String jobId = jobName + "-" + UUID.randomUUID();
    PortableJob job =
        PortablePipelineExecutor.start(new PortableJobSpec(jobId, jobName, pipeline, options, ""));
    return new DirectJobResult(jobId, job);
  }

  private static final class DirectJobResult extends PortablePipelineResult {
    private final PortableJob job;

    DirectJobResult(String jobId, PortableJob job) {
      super(jobId);
      this.job = job;
    }

    @Override
    protected CompletableFuture<State> termination() {
      return job.termination();
    }

    @Override
    protected String errorText() {
      Throwable failure = job.failure();
      if (failure == null) {
        return "";
      }
      StringWriter text = new StringWriter();
      failure.printStackTrace(new PrintWriter(text));
      return text.toString();
    }

    @Override
    public State cancel() throws IOException {
      job.cancel();
      return getState();
    }

    @Override
    public MetricResults metrics() {
      return MonitoringInfoMetrics.of(job.monitoringInfos());
    }
  }
}
