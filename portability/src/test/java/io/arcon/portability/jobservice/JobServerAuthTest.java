package io.arcon.portability.jobservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.beam.model.jobmanagement.v1.ArtifactApi;
import org.apache.beam.model.jobmanagement.v1.JobApi;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token: required off loopback, and enforced on both ports whenever it is set. */
class JobServerAuthTest {

  private static final String TOKEN = "s3cret-token";

  @TempDir Path temp;

  @Test
  void aNonLoopbackAddressWithoutATokenIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ArconJobServer.start(JobServerConfig.ephemeral().withBindAddress("0.0.0.0")));
    assertTrue(e.getMessage().contains("non-loopback address 0.0.0.0"), e.getMessage());
    assertTrue(e.getMessage().contains("--token"), e.getMessage());
  }

  @Test
  void aNonLoopbackAddressWithATokenStarts() throws Exception {
    try (ArconJobServer server =
            ArconJobServer.start(
                JobServerConfig.ephemeral()
                    .withBindAddress("0.0.0.0")
                    .withToken(TOKEN)
                    .withStagingDir(temp));
        JobServiceClient client =
            new JobServiceClient(
                "127.0.0.1:" + server.jobPort(), "127.0.0.1:" + server.artifactPort(), TOKEN)) {
      assertTrue(describe(client) > 0);
    }
  }

  @Test
  void everyCallMustCarryTheToken() throws Exception {
    try (ArconJobServer server =
        ArconJobServer.start(JobServerConfig.ephemeral().withToken(TOKEN).withStagingDir(temp))) {
      for (String token : new String[] {null, "wrong-token", ""}) {
        try (JobServiceClient client =
            new JobServiceClient(server.jobEndpoint(), server.artifactEndpoint(), token)) {
          StatusRuntimeException job =
              assertThrows(StatusRuntimeException.class, () -> describe(client));
          assertEquals(Status.Code.UNAUTHENTICATED, job.getStatus().getCode());
          StatusRuntimeException artifact =
              assertThrows(
                  StatusRuntimeException.class,
                  () ->
                      client.retrieval.resolveArtifacts(
                          ArtifactApi.ResolveArtifactsRequest.getDefaultInstance()));
          assertEquals(Status.Code.UNAUTHENTICATED, artifact.getStatus().getCode());
        }
      }
      try (JobServiceClient client =
          new JobServiceClient(server.jobEndpoint(), server.artifactEndpoint(), TOKEN)) {
        assertTrue(describe(client) > 0);
        client.retrieval.resolveArtifacts(ArtifactApi.ResolveArtifactsRequest.getDefaultInstance());
      }
    }
  }

  @Test
  void theMissingTokenErrorSaysWhatToSend() throws Exception {
    try (ArconJobServer server =
            ArconJobServer.start(
                JobServerConfig.ephemeral().withToken(TOKEN).withStagingDir(temp));
        JobServiceClient client = new JobServiceClient(server)) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> describe(client));
      assertTrue(
          e.getStatus().getDescription().contains("authorization: Bearer <token>"), e.getMessage());
    }
  }

  private static int describe(JobServiceClient client) {
    return client
        .jobs
        .describePipelineOptions(JobApi.DescribePipelineOptionsRequest.getDefaultInstance())
        .getOptionsCount();
  }
}
