package io.arcon.portability.jobservice;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link ArconJobServer} runs. Start from {@link #defaults()} (the launcher's defaults) or
 * {@link #ephemeral()} (free ports, for tests and in-process use) and change fields with the {@code
 * with...} methods.
 *
 * @param bindAddress address both ports listen on; loopback by default
 * @param jobPort port of the JobService; 0 picks a free one
 * @param artifactPort port of artifact staging and retrieval; 0 picks a free one
 * @param token shared secret every call must carry as metadata {@code authorization: Bearer
 *     <token>}; null or empty = no authentication, which is only allowed on a loopback address
 * @param stagingDir directory under which each prepared job's artifacts are staged (a directory per
 *     job, deleted when the job ends); null = a fresh temporary directory, deleted on close
 * @param preparationTimeout how long a prepared job that is never run keeps its preparation and
 *     staged artifacts
 * @param retainedFinishedJobs how many finished jobs the service keeps answering about (state,
 *     messages, metrics, pipeline) before it forgets the oldest
 * @param jobStarter what starts a job; {@link JobStarter#ARCON} runs it on the Arcon runtime
 */
public record JobServerConfig(
    String bindAddress,
    int jobPort,
    int artifactPort,
    String token,
    Path stagingDir,
    Duration preparationTimeout,
    int retainedFinishedJobs,
    JobStarter jobStarter) {

  public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
  public static final int DEFAULT_JOB_PORT = 8099;
  public static final int DEFAULT_ARTIFACT_PORT = 8098;
  public static final Duration DEFAULT_PREPARATION_TIMEOUT = Duration.ofHours(1);
  public static final int DEFAULT_RETAINED_FINISHED_JOBS = 100;

  public JobServerConfig {
    if (bindAddress == null || bindAddress.isBlank()) {
      bindAddress = DEFAULT_BIND_ADDRESS;
    }
    checkPort("job port", jobPort);
    checkPort("artifact port", artifactPort);
    if (token != null && token.isEmpty()) {
      token = null;
    }
    Objects.requireNonNull(preparationTimeout, "preparationTimeout");
    if (preparationTimeout.isNegative() || preparationTimeout.isZero()) {
      throw new IllegalArgumentException(
          "preparation timeout must be positive, got " + preparationTimeout);
    }
    if (retainedFinishedJobs < 0) {
      throw new IllegalArgumentException(
          "retainedFinishedJobs must be 0 or more, got " + retainedFinishedJobs);
    }
    Objects.requireNonNull(jobStarter, "jobStarter");
  }

  /** The launcher's defaults: loopback, ports 8099 and 8098, no token, a temporary staging dir. */
  public static JobServerConfig defaults() {
    return new JobServerConfig(
        DEFAULT_BIND_ADDRESS,
        DEFAULT_JOB_PORT,
        DEFAULT_ARTIFACT_PORT,
        null,
        null,
        DEFAULT_PREPARATION_TIMEOUT,
        DEFAULT_RETAINED_FINISHED_JOBS,
        JobStarter.ARCON);
  }

  /** {@link #defaults()} on free ports: what tests and in-process users want. */
  public static JobServerConfig ephemeral() {
    return defaults().withJobPort(0).withArtifactPort(0);
  }

  public JobServerConfig withBindAddress(String value) {
    return new JobServerConfig(
        value,
        jobPort,
        artifactPort,
        token,
        stagingDir,
        preparationTimeout,
        retainedFinishedJobs,
        jobStarter);
  }

  public JobServerConfig withJobPort(int value) {
    return new JobServerConfig(
        bindAddress,
        value,
        artifactPort,
        token,
        stagingDir,
        preparationTimeout,
        retainedFinishedJobs,
        jobStarter);
  }

  public JobServerConfig withArtifactPort(int value) {
    return new JobServerConfig(
        bindAddress,
        jobPort,
        value,
        token,
        stagingDir,
        preparationTimeout,
        retainedFinishedJobs,
        jobStarter);
  }

  public JobServerConfig withToken(String value) {
    return new JobServerConfig(
        bindAddress,
        jobPort,
        artifactPort,
        value,
        stagingDir,
        preparationTimeout,
        retainedFinishedJobs,
        jobStarter);
  }

  public JobServerConfig withStagingDir(Path value) {
    return new JobServerConfig(
        bindAddress,
        jobPort,
        artifactPort,
        token,
        value,
        preparationTimeout,
        retainedFinishedJobs,
        jobStarter);
  }

  public JobServerConfig withPreparationTimeout(Duration value) {
    return new JobServerConfig(
        bindAddress,
        jobPort,
        artifactPort,
        token,
        stagingDir,
        value,
        retainedFinishedJobs,
        jobStarter);
  }

  public JobServerConfig withRetainedFinishedJobs(int value) {
    return new JobServerConfig(
        bindAddress,
        jobPort,
        artifactPort,
        token,
        stagingDir,
        preparationTimeout,
        value,
        jobStarter);
  }

  public JobServerConfig withJobStarter(JobStarter value) {
    return new JobServerConfig(
        bindAddress,
        jobPort,
        artifactPort,
        token,
        stagingDir,
        preparationTimeout,
        retainedFinishedJobs,
        value);
  }

  /**
   * The bind address, resolved; refuses an unauthenticated server on anything but loopback, because
   * whoever reaches the job port can run code (a pipeline's DoFns) in this JVM.
   *
   * @throws IllegalArgumentException if the address does not resolve, or is not loopback and there
   *     is no token
   */
  InetAddress checkedBindAddress() {
    InetAddress address;
    try {
      address = InetAddress.getByName(bindAddress);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          "cannot resolve bind address '" + bindAddress + "'; give an IP address or a known host",
          e);
    }
    if (!address.isLoopbackAddress() && token == null) {
      throw new IllegalArgumentException(
          "refusing to bind the job server to non-loopback address "
              + bindAddress
              + " without a token: anyone who reaches it could run code in this JVM. Pass --token"
              + " <secret> (clients then send the metadata 'authorization: Bearer <secret>') or"
              + " bind "
              + DEFAULT_BIND_ADDRESS);
    }
    return address;
  }

  private static void checkPort(String what, int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          what + " " + port + " is out of range 0..65535 (0 picks a free port)");
    }
  }
}
