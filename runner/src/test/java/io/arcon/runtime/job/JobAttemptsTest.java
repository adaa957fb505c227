package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.observe.JobStats;
import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The end of a job of attempts (restarts) however its attempts end. */
class JobAttemptsTest {
  @TempDir Path stateRoot;

  /** A failure that throws when asked for its cause, as the handling of a failed attempt does. */
  static final class UninspectableFailure extends RuntimeException {
    UninspectableFailure() {
      super("throws when asked for its cause");
    }

    @Override
    public synchronized Throwable getCause() {
      throw new IllegalStateException("no cause to be had");
    }
  }

  /** Fails its node with an {@link UninspectableFailure} at the first element. */
  static final class FailsUninspectably implements Operator {
    @Override
    public void open(OperatorContext context) {}

    @Override
    public void processElement(int port, Object element) {
      throw new UninspectableFailure();
    }
  }

  /**
   * A throwable while the end of an attempt is handled (here: the failure cannot be inspected; in
   * the case seen, the class of an enum switch could not be loaded any more, the runner's jar
   * having been rewritten under the job) fails the job. It was swallowed by the attempt's
   * CompletableFuture while the attempt's runtime went down: the job never ended, with no thread
   * left to end it.
   */
  @Test
  void aThrowableWhileAnAttemptsEndIsHandledFailsTheJobInsteadOfLosingIt() throws Exception {
    JobGraph g = new JobGraph();
    Vertex v = g.addVertex("chain", 1);
    OperatorNode s = v.addOperator("endless", TestOperators.EndlessSource::new);
    OperatorNode f = v.addOperator("failing", FailsUninspectably::new);
    v.connect(s, 0, f, 0);
    RuntimeConfig config =
        new RuntimeConfig(1000, 1000, 64, 4, stateRoot, JobClock.SYSTEM, false, null, false);
    JobMonitor job =
        JobAttempts.start(
            "uninspectable",
            g,
            config,
            attempt -> null,
            attempt -> null,
            1,
            0,
            new JobStats("uninspectable", g));

    assertEquals(JobMonitor.Outcome.FAILED, job.outcome().get(30, TimeUnit.SECONDS));
    assertInstanceOf(IllegalStateException.class, job.failure());
    assertEquals("no cause to be had", job.failure().getMessage());
    assertSame(UninspectableFailure.class, job.failure().getSuppressed()[0].getClass());
  }
}
