package io.arcon.portability.harness;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.beam.fn.harness.FnHarness;
import org.apache.beam.model.fnexecution.v1.ProvisionApi;
import org.apache.beam.model.fnexecution.v1.ProvisionServiceGrpc;
import org.apache.beam.model.jobmanagement.v1.ArtifactApi;
import org.apache.beam.model.jobmanagement.v1.ArtifactRetrievalServiceGrpc;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.fnexecution.artifact.ArtifactRetrievalService;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannelBuilder;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Metadata;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.MetadataUtils;

/**
 * The boot command of a PROCESS environment that runs Beam's Java SDK harness: the runner starts it
 * with {@code --id=<worker id> --provision_endpoint=<host:port>} (Beam's boot protocol); it asks
 * the provisioning service for the job's options and the control and logging endpoints, then runs
 * the harness in this JVM until the runner lets it go.
 *
 * <p>The environment's artifacts (a Java client's {@code --filesToStage}) are fetched first, as
 * Beam's own boot programs do, by a run with {@code --retrieve_to=<dir>}: it writes them from the
 * runner's artifact retrieval service into that directory and prints the classpath of their jars,
 * which {@code bin/arcon-java-harness} puts on the classpath of the harness's JVM (a JVM's
 * classpath is fixed at its start, and a class loader of our own would not be the one Beam's
 * harness deserializes DoFns with on every thread). The user's classes may also come from {@code
 * $ARCON_HARNESS_CLASSPATH}. The harness's JVM deletes the directory named by the system property
 * {@value #STAGED_DIR_PROPERTY} when it exits.
 */
public final class JavaSdkHarnessBoot {
  static final String STAGED_DIR_PROPERTY = "arcon.harness.stagedDir";

  /** Beam's services tell workers apart by this header, as Beam's boot programs send it. */
  private static final Metadata.Key<String> WORKER_ID =
      Metadata.Key.of("worker_id", Metadata.ASCII_STRING_MARSHALLER);

  private JavaSdkHarnessBoot() {}

  public static void main(String[] args) throws Exception {
    String id = null;
    String provision = null;
    String retrieveTo = null;
    for (String arg : args) {
      if (arg.startsWith("--id=")) {
        id = arg.substring("--id=".length());
      } else if (arg.startsWith("--provision_endpoint=")) {
        provision = arg.substring("--provision_endpoint=".length());
      } else if (arg.startsWith("--retrieve_to=")) {
        retrieveTo = arg.substring("--retrieve_to=".length());
      }
      // Other boot flags (--semi_persist_dir, ...) mean nothing to a harness without a container.
    }
    if (id == null || provision == null) {
      System.err.println(
          "usage: JavaSdkHarnessBoot --id=<worker id> --provision_endpoint=<host:port> (the"
              + " runner passes both when it starts a PROCESS environment)");
      System.exit(2);
    }
    ProvisionApi.ProvisionInfo info = provisionInfo(id, provision);
    if (retrieveTo != null) {
      // Standard output carries the classpath alone: whatever else writes there goes to stderr.
      PrintStream out = System.out;
      System.setOut(System.err);
      List<Path> files = retrieve(info, id, Path.of(retrieveTo));
      out.println(classpath(files));
      out.flush();
      return;
    }
    String staged = System.getProperty(STAGED_DIR_PROPERTY);
    if (staged != null && !staged.isEmpty()) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> deleteQuietly(Path.of(staged)), "delete-staged"));
    }
    PipelineOptions options = PipelineOptionsTranslation.fromProto(info.getPipelineOptions());
    FnHarness.main(
        id,
        options,
        Set.copyOf(info.getRunnerCapabilitiesList()),
        info.getLoggingEndpoint(),
        info.getControlEndpoint(),
        info.hasStatusEndpoint() ? info.getStatusEndpoint() : null);
  }

  private static ProvisionApi.ProvisionInfo provisionInfo(String workerId, String endpoint) {
    ManagedChannel channel = ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build();
    try {
      return ProvisionServiceGrpc.newBlockingStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(workerHeaders(workerId)))
          .getProvisionInfo(ProvisionApi.GetProvisionInfoRequest.getDefaultInstance())
          .getInfo();
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * Writes the environment's dependencies into {@code dir}, each under the name the client staged
   * it as (else {@code artifact-<n>}).
   */
  static List<Path> retrieve(ProvisionApi.ProvisionInfo info, String workerId, Path dir)
      throws IOException {
    List<RunnerApi.ArtifactInformation> dependencies = info.getDependenciesList();
    if (dependencies.isEmpty()) {
      return List.of();
    }
    String endpoint = info.getArtifactEndpoint().getUrl();
    if (endpoint.isEmpty()) {
      throw new IllegalStateException(
          "The environment depends on "
              + dependencies.size()
              + " artifacts, but the runner's provision info names no artifact endpoint to fetch"
              + " them from");
    }
    Files.createDirectories(dir);
    ManagedChannel channel =
        ManagedChannelBuilder.forTarget(endpoint)
            .usePlaintext()
            .maxInboundMessageSize(Integer.MAX_VALUE)
            .build();
    try {
      ArtifactRetrievalServiceGrpc.ArtifactRetrievalServiceBlockingStub artifacts =
          ArtifactRetrievalServiceGrpc.newBlockingStub(channel)
              .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(workerHeaders(workerId)));
      List<Path> files = new ArrayList<>();
      for (int i = 0; i < dependencies.size(); i++) {
        RunnerApi.ArtifactInformation artifact = dependencies.get(i);
        Path file = dir.resolve(fileName(artifact, i));
        if (Files.exists(file)) {
          // Two artifacts staged under one name: keep both.
          file = dir.resolve(i + "-" + file.getFileName());
        }
        try (OutputStream out = Files.newOutputStream(file)) {
          Iterator<ArtifactApi.GetArtifactResponse> chunks =
              artifacts.getArtifact(
                  ArtifactApi.GetArtifactRequest.newBuilder().setArtifact(artifact).build());
          while (chunks.hasNext()) {
            chunks.next().getData().writeTo(out);
          }
        } catch (RuntimeException e) {
          throw new IllegalStateException(
              "Fetching artifact "
                  + file.getFileName()
                  + " of the environment from the runner's artifact service at "
                  + endpoint
                  + " failed: "
                  + e.getMessage(),
              e);
        }
        files.add(file);
      }
      return files;
    } finally {
      channel.shutdownNow();
    }
  }

  /** The staged name (role {@code STAGING_TO}), without any directory part. */
  private static String fileName(RunnerApi.ArtifactInformation artifact, int index) {
    if (ArtifactRetrievalService.STAGING_TO_ARTIFACT_URN.equals(artifact.getRoleUrn())) {
      try {
        String name =
            RunnerApi.ArtifactStagingToRolePayload.parseFrom(artifact.getRolePayload())
                .getStagedName();
        Path base = name.isEmpty() ? null : Path.of(name).getFileName();
        if (base != null && !base.toString().equals("..") && !base.toString().equals(".")) {
          return base.toString();
        }
      } catch (InvalidProtocolBufferException | RuntimeException e) {
        // An unreadable name is no reason not to fetch the artifact.
      }
    }
    return "artifact-" + index;
  }

  /** The jars among {@code files}, as a classpath. */
  static String classpath(List<Path> files) {
    List<String> jars = new ArrayList<>();
    for (Path file : files) {
      if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar")) {
        jars.add(file.toAbsolutePath().toString());
      }
    }
    return String.join(File.pathSeparator, jars);
  }

  private static Metadata workerHeaders(String workerId) {
    Metadata headers = new Metadata();
    headers.put(WORKER_ID, workerId);
    return headers;
  }

  private static void deleteQuietly(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      System.err.println("JavaSdkHarnessBoot: could not delete " + dir + ": " + e);
    }
  }
}
