package io.arcon.portability.jobservice;

import java.util.concurrent.TimeUnit;
import org.apache.beam.model.jobmanagement.v1.ArtifactRetrievalServiceGrpc;
import org.apache.beam.model.jobmanagement.v1.ArtifactStagingServiceGrpc;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.model.jobmanagement.v1.JobServiceGrpc;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.Struct;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Metadata;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.netty.NettyChannelBuilder;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.MetadataUtils;

/**
 * A Beam SDK's side of the job server, as the tests drive it: real gRPC channels to the job and
 * artifact ports, and Beam's own client half of artifact staging.
 */
final class JobServiceClient implements AutoCloseable {

  private final ManagedChannel jobChannel;
  private final ManagedChannel artifactChannel;
  final JobServiceGrpc.JobServiceBlockingStub jobs;
  final ArtifactStagingServiceGrpc.ArtifactStagingServiceStub staging;
  final ArtifactRetrievalServiceGrpc.ArtifactRetrievalServiceBlockingStub retrieval;

  JobServiceClient(ArconJobServer server) {
    this(server.jobEndpoint(), server.artifactEndpoint(), null);
  }

  /**
   * @param token sent as {@code authorization: Bearer <token>}; null sends no authorization
   */
  JobServiceClient(String jobEndpoint, String artifactEndpoint, String token) {
    jobChannel = channel(jobEndpoint, token);
    artifactChannel = channel(artifactEndpoint, token);
    jobs = JobServiceGrpc.newBlockingStub(jobChannel);
    staging = ArtifactStagingServiceGrpc.newStub(artifactChannel);
    retrieval = ArtifactRetrievalServiceGrpc.newBlockingStub(artifactChannel);
  }

  private static ManagedChannel channel(String endpoint, String token) {
    NettyChannelBuilder builder = NettyChannelBuilder.forTarget(endpoint).usePlaintext();
    if (token != null) {
      Metadata headers = new Metadata();
      headers.put(BearerTokenInterceptor.AUTHORIZATION, "Bearer " + token);
      builder.intercept(MetadataUtils.newAttachHeadersInterceptor(headers));
    }
    return builder.build();
  }

  JobApi.PrepareJobResponse prepare(String jobName, RunnerApi.Pipeline pipeline) {
    return prepare(jobName, pipeline, Struct.getDefaultInstance());
  }

  JobApi.PrepareJobResponse prepare(String jobName, RunnerApi.Pipeline pipeline, Struct options) {
    return jobs.prepare(
        JobApi.PrepareJobRequest.newBuilder()
            .setJobName(jobName)
            .setPipeline(pipeline)
            .setPipelineOptions(options)
            .build());
  }

  /**
   * Stages the artifacts the prepared pipeline's environments declare, reading them from this
   * machine, as Beam's Java PortableRunner does.
   */
  void stage(JobApi.PrepareJobResponse preparation) throws Exception {
    ArtifactStagingService.offer(
        new ArtifactRetrievalService(), staging, preparation.getStagingSessionToken());
  }

  String run(JobApi.PrepareJobResponse preparation) {
    return jobs.run(
            JobApi.RunJobRequest.newBuilder()
                .setPreparationId(preparation.getPreparationId())
                .build())
        .getJobId();
  }

  /** Prepare, stage, Run: what an SDK does to submit a pipeline. */
  String submit(String jobName, RunnerApi.Pipeline pipeline) throws Exception {
    return submit(jobName, pipeline, Struct.getDefaultInstance());
  }

  String submit(String jobName, RunnerApi.Pipeline pipeline, Struct options) throws Exception {
    JobApi.PrepareJobResponse preparation = prepare(jobName, pipeline, options);
    stage(preparation);
    return run(preparation);
  }

  static JobApi.GetJobStateRequest stateRequest(String jobId) {
    return JobApi.GetJobStateRequest.newBuilder().setJobId(jobId).build();
  }

  @Override
  public void close() throws InterruptedException {
    jobChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    artifactChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }
}
