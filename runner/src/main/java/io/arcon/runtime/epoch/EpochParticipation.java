package io.arcon.runtime.epoch;

import java.nio.file.Path;

/**
 * A node instance's side of the epoch protocol: where its operators write their snapshots and how
 * it reports back. Thread-safe: acknowledgements may come from the threads that finish asynchronous
 * snapshot parts.
 */
public interface EpochParticipation {
  /** The directory operator {@code operatorIndex} of this node writes into for {@code epoch}. */
  Path operatorDirectory(long epoch, int vertexId, int instance, int operatorIndex);

  /**
   * Whether {@code epoch}, triggered earlier, was given up: its snapshots are no longer written,
   * and a failure writing one is not the node's.
   */
  boolean givenUp(long epoch);

  /** The node's snapshot of {@code epoch} is complete and its marker went downstream. */
  void acknowledged(long epoch, int vertexId, int instance);

  /** The node could not snapshot {@code epoch}: the epoch is given up, the job goes on. */
  void declined(long epoch, int vertexId, int instance, Throwable cause);

  /**
   * Every input of the node ended but it still works (its operators have pending work): no marker
   * can reach it any more, so from now on the coordinator triggers it directly, like a source.
   */
  void inputsEnded(int vertexId, int instance);
}
