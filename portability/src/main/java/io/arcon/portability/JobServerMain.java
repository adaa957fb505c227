package io.arcon.portability;

import io.arcon.portability.jobservice.ArconJobServer;
import io.arcon.portability.jobservice.JobServerConfig;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.sdk.util.ReleaseInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code arcon-jobserver}: a Beam job server that runs portable pipelines on ArconRunner, in the
 * foreground until stopped (Ctrl-C or SIGTERM).
 */
@Command(
    name = "arcon-jobserver",
    mixinStandardHelpOptions = true,
    versionProvider = JobServerMain.BeamVersion.class,
    description = {
      "Beam job server for ArconRunner: Beam SDKs submit portable pipelines to its job port,",
      "e.g. Python: --runner=PortableRunner --job_endpoint=localhost:8099"
    })
public final class JobServerMain implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--job-port",
      defaultValue = "" + JobServerConfig.DEFAULT_JOB_PORT,
      paramLabel = "N",
      description = "Port of the JobService (default: ${DEFAULT-VALUE}; 0 picks a free one).")
  int jobPort;

  @Option(
      names = "--artifact-port",
      defaultValue = "" + JobServerConfig.DEFAULT_ARTIFACT_PORT,
      paramLabel = "N",
      description =
          "Port of artifact staging and retrieval (default: ${DEFAULT-VALUE}; 0 picks a free one).")
  int artifactPort;

  @Option(
      names = "--bind-address",
      defaultValue = JobServerConfig.DEFAULT_BIND_ADDRESS,
      paramLabel = "HOST",
      description = "Address to listen on (default: ${DEFAULT-VALUE}); non-loopback needs --token.")
  String bindAddress;

  @Option(
      names = "--token",
      defaultValue = "${env:ARCON_JOBSERVER_TOKEN}",
      paramLabel = "SECRET",
      description =
          "Shared secret every client must send as metadata 'authorization: Bearer <SECRET>'"
              + " (default: $ARCON_JOBSERVER_TOKEN); required on a non-loopback address.")
  String token;

  @Option(
      names = "--staging-dir",
      paramLabel = "DIR",
      description =
          "Where staged artifacts are kept, a directory per job, deleted when the job ends"
              + " (default: a temporary directory).")
  Path stagingDir;

  /** Completed with the running server, so that a test can stop it. */
  final CompletableFuture<ArconJobServer> started = new CompletableFuture<>();

  /** {@code --version}: the Beam version whose job API the server speaks. */
  static final class BeamVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "arcon-jobserver (Beam job API of Beam "
            + ReleaseInfo.getReleaseInfo().getSdkVersion()
            + ")"
      };
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new JobServerMain()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ArconJobServer server;
    try {
      server =
          ArconJobServer.start(
              JobServerConfig.defaults()
                  .withBindAddress(bindAddress)
                  .withJobPort(jobPort)
                  .withArtifactPort(artifactPort)
                  .withToken(token)
                  .withStagingDir(stagingDir));
    } catch (IllegalArgumentException | UncheckedIOException e) {
      err.println("arcon-jobserver: " + e.getMessage());
      err.flush();
      started.completeExceptionally(e);
      return 2;
    }
    // SIGTERM and Ctrl-C run the shutdown hooks: cancel the jobs, delete staged artifacts.
    Thread hook = new Thread(server::close, "arcon-jobserver-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println(
        "Arcon job server listening on "
            + server.jobEndpoint()
            + " (artifacts on "
            + server.artifactEndpoint()
            + ")");
    out.flush();
    started.complete(server);
    server.awaitTermination();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down and the hook is running: nothing to undo.
    }
    return 0;
  }
}
