package io.arcon.portability.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.beam.model.jobmanagement.v1.ArtifactStagingServiceGrpc;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobServiceGrpc;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.netty.NettyChannelBuilder;

/**
 * Submits jobs to a Beam job server over gRPC, as Beam's SDKs do: Prepare, stage the environments'
 * artifacts through the artifact endpoint the server names, Run; then follows the job with {@link
 * GrpcJobResult}. One submitter (and channel) per job endpoint and JVM.
 */
final class GrpcJobSubmitter implements JobSubmitter {
  /** A pipeline proto carries the serialized user code, which can exceed gRPC's 4 MiB default. */
  static final int MAX_MESSAGE_BYTES = 512 << 20;

  /** How long a single Prepare/Run/Cancel/GetJobMetrics call may take before it is an error. */
  static final long CALL_DEADLINE_SECONDS = 120;

  private static final Map<String, GrpcJobSubmitter> BY_ENDPOINT = new ConcurrentHashMap<>();

  private final String jobEndpoint;
  private final ManagedChannel jobChannel;
  private final Map<String, ManagedChannel> artifactChannels = new ConcurrentHashMap<>();

  private GrpcJobSubmitter(String jobEndpoint) {
    this.jobEndpoint = jobEndpoint;
    this.jobChannel = channel(jobEndpoint);
  }

  /** The submitter for {@code jobEndpoint} ({@code host:port}), shared in this JVM. */
  static GrpcJobSubmitter forEndpoint(String jobEndpoint) {
    if (jobEndpoint == null || jobEndpoint.isBlank() || !jobEndpoint.contains(":")) {
      throw new IllegalArgumentException(
          "--jobEndpoint must be host:port of a running job server (e.g. localhost:8099), not '"
              + jobEndpoint
              + "'. Start one with bin/arcon-jobserver, or leave --jobEndpoint unset to run an"
              + " in-process job server.");
    }
    return BY_ENDPOINT.computeIfAbsent(jobEndpoint, GrpcJobSubmitter::new);
  }

  private static ManagedChannel channel(String endpoint) {
    return NettyChannelBuilder.forTarget(endpoint)
        .usePlaintext()
        .maxInboundMessageSize(MAX_MESSAGE_BYTES)
        .build();
  }

  private JobServiceGrpc.JobServiceBlockingStub jobs() {
    return JobServiceGrpc.newBlockingStub(jobChannel)
        .withMaxOutboundMessageSize(MAX_MESSAGE_BYTES)
        .withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public PortablePipelineResult submit(
      String jobName, RunnerApi.Pipeline pipeline, Struct options) {
    JobApi.PrepareJobResponse preparation;
    try {
      preparation =
          jobs()
              .prepare(
                  JobApi.PrepareJobRequest.newBuilder()
                      .setJobName(jobName)
                      .setPipeline(pipeline)
                      .setPipelineOptions(options)
                      .build());
    } catch (StatusRuntimeException e) {
      throw new IllegalStateException(
          "The job server at "
              + jobEndpoint
              + " refused to prepare job '"
              + jobName
              + "': "
              + e.getStatus()
              + ". Is a job server running there (bin/arcon-jobserver)?",
          e);
    }
    stageArtifacts(jobName, preparation);
    String jobId;
    try {
      jobId =
          jobs()
              .run(
                  JobApi.RunJobRequest.newBuilder()
                      .setPreparationId(preparation.getPreparationId())
                      .build())
              .getJobId();
    } catch (StatusRuntimeException e) {
      throw new IllegalStateException(
          "The job server at "
              + jobEndpoint
              + " refused to run job '"
              + jobName
              + "': "
              + e.getStatus(),
          e);
    }
    return GrpcJobResult.follow(jobId, jobChannel);
  }

  /**
   * Offers the files the environments depend on to the server's artifact service (Beam's client
   * half of the staging protocol); with nothing to stage this only closes the staging session.
   */
  private void stageArtifacts(String jobName, JobApi.PrepareJobResponse preparation) {
    String url = preparation.getArtifactStagingEndpoint().getUrl();
    if (url.isEmpty()) {
      return;
    }
    ManagedChannel artifacts = artifactChannels.computeIfAbsent(url, GrpcJobSubmitter::channel);
    try {
      ArtifactStagingService.offer(
          new ArtifactRetrievalService(),
          ArtifactStagingServiceGrpc.newStub(artifacts),
          preparation.getStagingSessionToken());
    } catch (Exception e) {
      throw new IllegalStateException(
          "Staging the artifacts of job '" + jobName + "' at " + url + " failed: " + e.getMessage(),
          e);
    }
  }
}
