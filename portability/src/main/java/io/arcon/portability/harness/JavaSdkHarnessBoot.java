package io.arcon.portability.harness;

import java.util.Set;
import org.apache.beam.fn.harness.FnHarness;
import org.apache.beam.model.fnexecution.v1.ProvisionApi;
import org.apache.beam.model.fnexecution.v1.ProvisionServiceGrpc;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannelBuilder;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Metadata;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.stub.MetadataUtils;

/**
 * The boot command of a PROCESS environment that runs Beam's Java SDK harness: the runner starts it
 * with {@code --id=<worker id> --provision_endpoint=<host:port>} (Beam's boot protocol); it asks
 * the provisioning service for the job's options and the control and logging endpoints, then runs
 * the harness in this JVM until the runner lets it go. The user's classes must be on this JVM's
 * classpath ({@code bin/arcon-java-harness} adds {@code $ARCON_HARNESS_CLASSPATH}).
 */
public final class JavaSdkHarnessBoot {
  private JavaSdkHarnessBoot() {}

  public static void main(String[] args) throws Exception {
    String id = null;
    String provision = null;
    for (String arg : args) {
      if (arg.startsWith("--id=")) {
        id = arg.substring("--id=".length());
      } else if (arg.startsWith("--provision_endpoint=")) {
        provision = arg.substring("--provision_endpoint=".length());
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
    Metadata headers = new Metadata();
    // The runner's services tell workers apart by this header, as Beam's boot programs send it.
    headers.put(Metadata.Key.of("worker_id", Metadata.ASCII_STRING_MARSHALLER), workerId);
    ManagedChannel channel = ManagedChannelBuilder.forTarget(endpoint).usePlaintext().build();
    try {
      return ProvisionServiceGrpc.newBlockingStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
          .getProvisionInfo(ProvisionApi.GetProvisionInfoRequest.getDefaultInstance())
          .getInfo();
    } finally {
      channel.shutdownNow();
    }
  }
}
