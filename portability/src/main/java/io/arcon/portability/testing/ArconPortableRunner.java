package io.arcon.portability.testing;

import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.metrics.MetricsEnvironment;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PortablePipelineOptions;

/**
 * Runs a Java pipeline on ArconRunner through Beam's Job API: the pipeline becomes its portable
 * proto (EMBEDDED environment by default, so its code runs in the job server's JVM through the Java
 * SDK harness) and is submitted to the job server at {@code --jobEndpoint}, e.g. {@code
 * --runner=ArconPortableRunner --jobEndpoint=localhost:8099}. Without {@code --jobEndpoint}, a job
 * server is started in this JVM (once, on ephemeral ports).
 *
 * <p>With EMBEDDED, the job server must have the pipeline's classes on its class path; choose
 * {@code --defaultEnvironmentType=PROCESS} or {@code EXTERNAL} (and {@code --filesToStage}) for a
 * server that does not. A job server started with {@code --token} needs {@code --jobServerToken}
 * (or {@code $ARCON_JOBSERVER_TOKEN}), see {@link ArconPortableRunnerOptions}.
 */
public class ArconPortableRunner extends PipelineRunner<PortablePipelineResult> {
  private final PortablePipelineOptions options;

  protected ArconPortableRunner(PipelineOptions options) {
    this.options = PortablePipelines.prepareOptions(options);
  }

  public static ArconPortableRunner fromOptions(PipelineOptions options) {
    return new ArconPortableRunner(options);
  }

  @Override
  public PortablePipelineResult run(Pipeline pipeline) {
    // The job server reports the job's metrics (GetJobMetrics), PAssert's counters included.
    MetricsEnvironment.setMetricsSupported(true);
    RunnerApi.Pipeline proto = PortablePipelines.toProto(pipeline, options);
    String jobName = options.getJobName();
    return submitter().submit(jobName, proto, PortablePipelines.optionsStruct(options));
  }

  private JobSubmitter submitter() {
    String endpoint = options.getJobEndpoint();
    return GrpcJobSubmitter.forEndpoint(
        endpoint == null || endpoint.isBlank() ? InProcessJobServer.jobEndpoint() : endpoint,
        token(options.as(ArconPortableRunnerOptions.class)));
  }

  /** {@code --jobServerToken}, else {@code $ARCON_JOBSERVER_TOKEN}; null for none. */
  static String token(ArconPortableRunnerOptions options) {
    String token = options.getJobServerToken();
    if (token == null || token.isEmpty()) {
      token = System.getenv(ArconPortableRunnerOptions.TOKEN_ENV);
    }
    return token == null || token.isEmpty() ? null : token;
  }
}
