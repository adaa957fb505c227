package io.arcon.portability.jobservice;

import io.arcon.portability.artifact.StagedArtifactRetrievalService;
import io.arcon.portability.artifact.StagingRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.model.pipeline.v1.Endpoints;
import org.apache.beam.runners.fnexecution.artifact.ArtifactStagingService;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.BindableService;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.Server;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.netty.NettyServerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Beam job server for ArconRunner: the JobService on one port, artifact staging and
 * retrieval on another. Start one with {@link #start(JobServerConfig)}, point a Beam SDK's portable
 * runner at {@link #jobEndpoint()}, and {@link #close()} it when done:
 *
 * <pre>{@code
 * try (ArconJobServer server = ArconJobServer.start()) { // free ports on 127.0.0.1
 *   // e.g. --runner=PortableRunner --jobEndpoint=<server.jobEndpoint()>
 * }
 * }</pre>
 *
 * <p>Closing stops both ports, cancels the jobs still running and deletes their staged artifacts
 * (and the staging directory itself when the server made a temporary one).
 */
public final class ArconJobServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ArconJobServer.class);

  /**
   * Largest request accepted: a pipeline proto carries the pickled or serialized user code, which
   * can exceed gRPC's 4 MiB default.
   */
  private static final int MAX_MESSAGE_BYTES = 512 << 20;

  /** How long close waits for each cancelled job to stop. */
  private static final long CANCEL_WAIT_SECONDS = 10;

  private final JobServerConfig config;
  private final String host;
  private final StagingRoot stagingRoot;
  private final boolean temporaryStagingDir;
  private final ArtifactStagingService staging;
  private final StagedArtifactRetrievalService retrieval;
  private final ArconJobService jobService;
  private final Server artifactServer;
  private final Server jobServer;

  private ArconJobServer(
      JobServerConfig config,
      String host,
      StagingRoot stagingRoot,
      boolean temporaryStagingDir,
      ArtifactStagingService staging,
      StagedArtifactRetrievalService retrieval,
      ArconJobService jobService,
      Server artifactServer,
      Server jobServer) {
    this.config = config;
    this.host = host;
    this.stagingRoot = stagingRoot;
    this.temporaryStagingDir = temporaryStagingDir;
    this.staging = staging;
    this.retrieval = retrieval;
    this.jobService = jobService;
    this.artifactServer = artifactServer;
    this.jobServer = jobServer;
  }

  /**
   * A server for in-process use: loopback, free ports, a temporary staging directory, jobs run on
   * the Arcon runtime ({@link JobServerConfig#ephemeral()}).
   */
  public static ArconJobServer start() {
    return start(JobServerConfig.ephemeral());
  }

  /**
   * Binds both ports and starts serving.
   *
   * @throws IllegalArgumentException for a non-loopback bind address without a token, or one that
   *     does not resolve
   * @throws UncheckedIOException when a port cannot be bound or the staging directory cannot be
   *     created
   */
  public static ArconJobServer start(JobServerConfig config) {
    InetAddress bindAddress = config.checkedBindAddress();
    boolean temporary = config.stagingDir() == null;
    Path stagingDir;
    try {
      stagingDir =
          temporary ? Files.createTempDirectory("arcon-jobserver-staging") : config.stagingDir();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a temporary staging directory: " + e.getMessage(), e);
    }
    StagingRoot stagingRoot = new StagingRoot(stagingDir);
    ArtifactStagingService staging = new ArtifactStagingService(stagingRoot);
    StagedArtifactRetrievalService retrieval = new StagedArtifactRetrievalService(stagingRoot);
    String host = advertisedHost(bindAddress, config.bindAddress());

    Server artifactServer = null;
    try {
      artifactServer =
          bind(config, bindAddress, config.artifactPort(), "artifact", staging, retrieval);
      Endpoints.ApiServiceDescriptor artifactEndpoint =
          Endpoints.ApiServiceDescriptor.newBuilder()
              .setUrl(hostPort(host, artifactServer.getPort()))
              .build();
      ArconJobService jobService =
          new ArconJobService(
              staging,
              stagingRoot,
              artifactEndpoint,
              config.jobStarter(),
              config.preparationTimeout(),
              config.retainedFinishedJobs());
      Server jobServer;
      try {
        jobServer = bind(config, bindAddress, config.jobPort(), "job", jobService);
      } catch (RuntimeException e) {
        jobService.close();
        throw e;
      }
      ArconJobServer server =
          new ArconJobServer(
              config,
              host,
              stagingRoot,
              temporary,
              staging,
              retrieval,
              jobService,
              artifactServer,
              jobServer);
      LOG.info(
          "Job server on {}, artifacts on {}, staging under {}",
          server.jobEndpoint(),
          server.artifactEndpoint(),
          stagingRoot.root());
      return server;
    } catch (RuntimeException e) {
      if (artifactServer != null) {
        artifactServer.shutdownNow();
      }
      if (temporary) {
        deleteQuietly(stagingDir);
      }
      throw e;
    }
  }

  private static Server bind(
      JobServerConfig config,
      InetAddress address,
      int port,
      String what,
      BindableService... services) {
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(address, port))
            .maxInboundMessageSize(MAX_MESSAGE_BYTES);
    for (BindableService service : services) {
      builder.addService(service);
    }
    if (config.token() != null) {
      builder.intercept(new BearerTokenInterceptor(config.token()));
    }
    try {
      return builder.build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen on "
              + hostPort(config.bindAddress(), port)
              + " for the "
              + what
              + " service: "
              + e.getMessage()
              + (port == 0 ? "" : "; is another job server running? pick another port"),
          e);
    }
  }

  /**
   * The JobService's address, {@code host:port}: what a Beam SDK's {@code --job_endpoint} takes.
   */
  public String jobEndpoint() {
    return hostPort(host, jobPort());
  }

  /** Artifact staging and retrieval, {@code host:port}; Prepare hands it to clients. */
  public String artifactEndpoint() {
    return hostPort(host, artifactPort());
  }

  /** The job port actually bound (the free port chosen for 0). */
  public int jobPort() {
    return jobServer.getPort();
  }

  /** The artifact port actually bound (the free port chosen for 0). */
  public int artifactPort() {
    return artifactServer.getPort();
  }

  /** The directory under which each job's artifacts are staged. */
  public Path stagingDir() {
    return stagingRoot.root();
  }

  public JobServerConfig config() {
    return config;
  }

  /** Blocks until the server is closed. */
  public void awaitTermination() throws InterruptedException {
    jobServer.awaitTermination();
    artifactServer.awaitTermination();
  }

  /**
   * Stops taking calls, cancels the running jobs (waiting a few seconds for each to stop), and
   * deletes staged artifacts.
   */
  @Override
  public void close() {
    jobServer.shutdown();
    artifactServer.shutdown();
    List<JobInvocation> running = jobService.runningJobs();
    for (JobInvocation job : running) {
      LOG.info("Cancelling job {} as the job server stops", job.id());
      job.cancel();
    }
    for (JobInvocation job : running) {
      try {
        job.events().awaitEnd(CANCEL_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        LOG.warn("Job {} did not stop within {}s of its cancel", job.id(), CANCEL_WAIT_SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    jobService.close();
    try {
      staging.close();
    } catch (Exception e) {
      LOG.warn("Closing the artifact staging service failed", e);
    }
    retrieval.close();
    try {
      if (!jobServer.awaitTermination(5, TimeUnit.SECONDS)) {
        jobServer.shutdownNow();
      }
      if (!artifactServer.awaitTermination(5, TimeUnit.SECONDS)) {
        artifactServer.shutdownNow();
      }
    } catch (InterruptedException e) {
      jobServer.shutdownNow();
      artifactServer.shutdownNow();
      Thread.currentThread().interrupt();
    }
    if (temporaryStagingDir) {
      deleteQuietly(stagingRoot.root());
    }
  }

  private static void deleteQuietly(Path directory) {
    try {
      StagingRoot.deleteRecursively(directory);
    } catch (IOException e) {
      LOG.warn("Could not delete {}", directory, e);
    }
  }

  /**
   * The host clients should use: the bind address, except that a wildcard bind (all interfaces) is
   * advertised by this machine's name.
   */
  private static String advertisedHost(InetAddress bound, String given) {
    if (!bound.isAnyLocalAddress()) {
      return given;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return given;
    }
  }

  /** {@code host:port}, an IPv6 address in brackets. */
  static String hostPort(String host, int port) {
    return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }
}
