package io.arcon.runtime.node.finish;

/**
 * How a node instance ends once all its input ended (every channel's end of stream, or its source
 * is exhausted):
 *
 * <ol>
 *   <li>the operators see the final watermark ({@link Steps#deliverFinalWatermark});
 *   <li>while an operator still has work of its own (residual splittable work) the node keeps
 *       running its timers, coming back here after each message ({@link #afterWork});
 *   <li>the operators end in chain order ({@link Steps#endOperators}), then the final watermark and
 *       end of stream go downstream ({@link Steps#sendEndOfStream});
 *   <li>once everything sent has left (no channel waits for credit), the node completes ({@link
 *       Steps#complete}).
 * </ol>
 *
 * A failure stops the node at any point ({@link #stop}).
 */
public final class FinishProtocol {
  /** What the protocol asks of the node at each step. */
  public interface Steps {
    void deliverFinalWatermark() throws Exception;

    boolean hasPendingWork();

    void endOperators() throws Exception;

    void sendEndOfStream();

    /** True while sent messages wait for credit. */
    boolean outputBlocked();

    /** Close the operators and report the node finished. */
    void complete();
  }

  private enum Phase {
    RUNNING,
    INPUTS_ENDED,
    FINISHING,
    STOPPED
  }

  private final Steps steps;
  private Phase phase = Phase.RUNNING;

  public FinishProtocol(Steps steps) {
    this.steps = steps;
  }

  /** All input ended, or the protocol resumes after waiting for the operators' pending work. */
  public void inputsEnded() throws Exception {
    if (phase.compareTo(Phase.FINISHING) >= 0) {
      return;
    }
    if (phase == Phase.RUNNING) {
      phase = Phase.INPUTS_ENDED;
      steps.deliverFinalWatermark();
    }
    if (steps.hasPendingWork()) {
      return; // afterWork() comes back here after the next timers fired
    }
    steps.endOperators();
    phase = Phase.FINISHING;
    steps.sendEndOfStream();
    tryComplete();
  }

  /**
   * Moves the protocol on after the node handled a message; true if the node is ending (finishing
   * or stopped), so it schedules no further work.
   */
  public boolean afterWork() throws Exception {
    if (phase == Phase.FINISHING) {
      tryComplete();
    } else if (phase == Phase.INPUTS_ENDED) {
      inputsEnded();
    }
    return phase.compareTo(Phase.FINISHING) >= 0;
  }

  /** Completes the node once its last messages have left. */
  public void tryComplete() {
    if (phase == Phase.FINISHING && !steps.outputBlocked()) {
      phase = Phase.STOPPED;
      steps.complete();
    }
  }

  /** The node failed or was stopped: nothing more happens. */
  public void stop() {
    phase = Phase.STOPPED;
  }

  /** True once all input ended (the final watermark was delivered). */
  public boolean inputsHaveEnded() {
    return phase != Phase.RUNNING;
  }

  public boolean isFinishing() {
    return phase == Phase.FINISHING;
  }

  public boolean isStopped() {
    return phase == Phase.STOPPED;
  }
}
