package io.arcon.portability.testing;

/**
 * The job server a runner without {@code --jobEndpoint} submits to: started once in this JVM, on
 * the first submission.
 */
final class InProcessJobServer {
  private static JobSubmitter submitter;

  private InProcessJobServer() {}

  static synchronized JobSubmitter submitter() {
    if (submitter == null) {
      submitter = new DirectJobSubmitter();
    }
    return submitter;
  }
}
