package io.arcon.runtime.node;

import io.arcon.runtime.epoch.EpochParticipation;
import io.arcon.runtime.node.output.EdgeOutputs;
import io.arcon.runtime.observe.NodeStats;

/**
 * What a {@link NodeTask} needs from the host that runs it ({@link NodeActor} in a job): its
 * mailbox for messages to itself, the mailboxes of its receivers, and the job to report to.
 */
public interface NodeEnvironment extends EdgeOutputs.Receivers {
  /** Puts {@code signal} into the node's own mailbox, behind what is already there. */
  void signalSelf(NodeSignal signal);

  /** Puts {@code signal} into the node's own mailbox after {@code delayMillis}. */
  void signalSelfLater(NodeSignal signal, long delayMillis);

  /**
   * Puts {@code task} into the node's own mailbox; the host hands it to {@link NodeTask#runTask}.
   */
  void runInMailbox(Runnable task);

  /** The node is set up (operators opened) and waits for the job's start. */
  void ready();

  /** The node ended its work: stop it and count it finished. */
  void finished();

  /** The node failed with {@code cause}: stop it and fail the job. */
  void failed(Throwable cause);

  /** The job's epoch protocol, or null when the job takes no snapshots. */
  default EpochParticipation epochs() {
    return null;
  }

  /** Where the node reports its live figures, or null when nobody observes it. */
  default NodeStats stats() {
    return null;
  }
}
