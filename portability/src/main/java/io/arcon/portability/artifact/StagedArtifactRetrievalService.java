package io.arcon.portability.artifact;

import java.nio.file.Path;
import org.apache.beam.model.jobmanagement.v1.ArtifactApi;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Status;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.StreamObserver;

/**
 * Beam's artifact retrieval service, limited to what this job server staged.
 *
 * <p>Beam's service reads any file or URL an artifact names, so whoever reaches the artifact port
 * could read any file the server can. SDK harnesses only need the artifacts staged for their job,
 * which are files under the {@link StagingRoot}, and embedded artifacts, which carry their bytes;
 * everything else is refused with PERMISSION_DENIED.
 */
public final class StagedArtifactRetrievalService extends ArtifactRetrievalService {

  private final StagingRoot stagingRoot;

  public StagedArtifactRetrievalService(StagingRoot stagingRoot) {
    this.stagingRoot = stagingRoot;
  }

  @Override
  public void getArtifact(
      ArtifactApi.GetArtifactRequest request,
      StreamObserver<ArtifactApi.GetArtifactResponse> responseObserver) {
    String refusal = refusal(request.getArtifact());
    if (refusal != null) {
      responseObserver.onError(Status.PERMISSION_DENIED.withDescription(refusal).asException());
      return;
    }
    super.getArtifact(request, responseObserver);
  }

  /** Why this server does not serve {@code artifact}, or null when it does. */
  private String refusal(RunnerApi.ArtifactInformation artifact) {
    String type = artifact.getTypeUrn();
    if (EMBEDDED_ARTIFACT_URN.equals(type)) {
      return null;
    }
    if (FILE_ARTIFACT_URN.equals(type)) {
      String path;
      try {
        path = RunnerApi.ArtifactFilePayload.parseFrom(artifact.getTypePayload()).getPath();
      } catch (InvalidProtocolBufferException e) {
        return "the artifact's file payload is not an ArtifactFilePayload: " + e.getMessage();
      }
      if (!path.isEmpty() && stagingRoot.holds(Path.of(path))) {
        return null;
      }
      return "file "
          + path
          + " was not staged through this job server; only staged artifacts (under "
          + stagingRoot.root()
          + ") are served";
    }
    return "artifacts of type "
        + type
        + " are not served; this server serves staged files ("
        + FILE_ARTIFACT_URN
        + ") and embedded artifacts ("
        + EMBEDDED_ARTIFACT_URN
        + ")";
  }
}
