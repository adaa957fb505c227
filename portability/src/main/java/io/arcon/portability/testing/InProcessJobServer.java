package io.arcon.portability.testing;

import io.arcon.portability.jobservice.ArconJobServer;

/**
 * The job server a runner without {@code --jobEndpoint} submits to: started in this JVM on
 * ephemeral ports with the first submission, and stopped when the JVM exits.
 */
final class InProcessJobServer {
  private static ArconJobServer server;

  private InProcessJobServer() {}

  /** Where the in-process job server's JobService listens ({@code host:port}). */
  static synchronized String jobEndpoint() {
    if (server == null) {
      ArconJobServer started = ArconJobServer.start();
      Runtime.getRuntime()
          .addShutdownHook(new Thread(started::close, "arcon-in-process-job-server-stop"));
      server = started;
    }
    return server.jobEndpoint();
  }
}
