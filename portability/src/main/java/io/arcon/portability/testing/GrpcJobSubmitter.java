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
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Channel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ClientInterceptors;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Metadata;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.netty.NettyChannelBuilder;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.MetadataUtils;

/**
 * Submits jobs to a Beam job server over gRPC, as Beam's SDKs do: Prepare, stage the environments'
 * artifacts through the artifact endpoint the server names, Run; then follows the job with {@link
 * GrpcJobResult}. One submitter (and channel) per job endpoint, token and JVM. With a token, every
 * job and artifact call carries {@code authorization: Bearer <token>}, as a job server started with
 * {@code --token} requires.
 */
final class GrpcJobSubmitter implements JobSubmitter {
  /** A pipeline proto carries the serialized user code, which can exceed gRPC's 4 MiB default. */
  static final int MAX_MESSAGE_BYTES = 512 << 20;

  /** How long a single Prepare/Run/Cancel/GetJobMetrics call may take before it is an error. */
  static final long CALL_DEADLINE_SECONDS = 120;

  private static final Map<String, GrpcJobSubmitter> BY_ENDPOINT = new ConcurrentHashMap<>();

  private final String jobEndpoint;
  private final String token;
  private final Channel jobChannel;
  private final Map<String, Channel> artifactChannels = new ConcurrentHashMap<>();

  private GrpcJobSubmitter(String jobEndpoint, String token) {
    this.jobEndpoint = jobEndpoint;
    this.token = token;
    this.jobChannel = channel(jobEndpoint);
  }

  /**
   * The submitter for {@code jobEndpoint} ({@code host:port}) and {@code token} (null for none),
   * shared in this JVM.
   */
  static GrpcJobSubmitter forEndpoint(String jobEndpoint, String token) {
    if (jobEndpoint == null || jobEndpoint.isBlank() || !jobEndpoint.contains(":")) {
      throw new IllegalArgumentException(
          "--jobEndpoint must be host:port of a running job server (e.g. localhost:8099), not '"
              + jobEndpoint
              + "'. Start one with bin/arcon-jobserver, or leave --jobEndpoint unset to run an"
              + " in-process job server.");
    }
    // A NUL separates endpoint and token: neither contains one.
    return BY_ENDPOINT.computeIfAbsent(
        token == null ? jobEndpoint : jobEndpoint + "\0" + token,
        key -> new GrpcJobSubmitter(jobEndpoint, token));
  }

  private Channel channel(String endpoint) {
    ManagedChannel channel =
        NettyChannelBuilder.forTarget(endpoint)
            .usePlaintext()
            .maxInboundMessageSize(MAX_MESSAGE_BYTES)
            .build();
    if (token == null) {
      return channel;
    }
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return ClientInterceptors.intercept(
        channel, MetadataUtils.newAttachHeadersInterceptor(headers));
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
      throw refused("prepare", jobName, e);
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
      throw refused("run", jobName, e);
    }
    return GrpcJobResult.follow(jobId, jobChannel);
  }

  /**
   * The server's reason first (failures with one cause read alike), then where it came from: an
   * IllegalArgumentException for a pipeline the server cannot run, else an IllegalStateException.
   */
  private RuntimeException refused(String what, String jobName, StatusRuntimeException e) {
    Status status = e.getStatus();
    String where =
        "(the job server at " + jobEndpoint + " refused to " + what + " job '" + jobName + "'";
    if (status.getCode() == Status.Code.INVALID_ARGUMENT) {
      return new IllegalArgumentException(status.getDescription() + "\n" + where + ")", e);
    }
    if (status.getCode() == Status.Code.UNAUTHENTICATED) {
      return new IllegalStateException(unauthenticated(status) + "\n" + where + ")", e);
    }
    return new IllegalStateException(
        status + "\n" + where + "; is a job server running there, e.g. bin/arcon-jobserver?)", e);
  }

  /** What to do about an UNAUTHENTICATED answer: the server requires a token. */
  private String unauthenticated(Status status) {
    String hint =
        token == null
            ? "The job server at "
                + jobEndpoint
                + " requires a token, and none was given: pass --jobServerToken=<token> (or set"
                + " $"
                + ArconPortableRunnerOptions.TOKEN_ENV
                + ") with the token the server was started with (bin/arcon-jobserver --token)."
            : "The job server at "
                + jobEndpoint
                + " refused the token given (--jobServerToken or $"
                + ArconPortableRunnerOptions.TOKEN_ENV
                + "): pass the token the server was started with (bin/arcon-jobserver --token).";
    return hint + " The server said: " + status.getDescription();
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
    Channel artifacts = artifactChannels.computeIfAbsent(url, this::channel);
    try {
      ArtifactStagingService.offer(
          new ArtifactRetrievalService(),
          ArtifactStagingServiceGrpc.newStub(artifacts),
          preparation.getStagingSessionToken());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNAUTHENTICATED) {
        throw new IllegalStateException(
            "Staging the artifacts of job '"
                + jobName
                + "' at "
                + url
                + " failed: "
                + unauthenticated(e.getStatus()),
            e);
      }
      throw new IllegalStateException(
          "Staging the artifacts of job '" + jobName + "' at " + url + " failed: " + e.getMessage(),
          e);
    } catch (Exception e) {
      throw new IllegalStateException(
          "Staging the artifacts of job '" + jobName + "' at " + url + " failed: " + e.getMessage(),
          e);
    }
  }
}
