package io.arcon.runtime.node.activity;

import io.arcon.runtime.job.JobActivity;
import org.apache.pekko.actor.ActorRef;

/**
 * What a node reports to the job's in-flight message count ({@link JobActivity}), which a {@code
 * TestStream} source waits on to see the job quiescent. Jobs without one use {@link #NONE}.
 */
public interface NodeActivity {
  /** Reports nothing. */
  NodeActivity NONE = new NodeActivity() {};

  /** The node sent one message to another node. */
  default void messageSent() {}

  /** The node handled one message from another node. */
  default void messageProcessed() {}

  /** The node handled one notification that the manual clock moved. */
  default void clockAdvanceHandled() {}

  /** The node stopped: notifications still in its mailbox will never be handled. */
  default void stopped() {}

  /**
   * Registers {@code node} as live with {@code activity} and reports to it as that node, or does
   * nothing when {@code activity} is null. Call it from the node's own start, before it can finish:
   * registered from outside (after {@code actorOf} returned), a node that had already started and
   * finished was registered after it stopped, so the next clock notification went to a dead node
   * and the job never looked quiescent again (a restarted test stream waited for ever).
   */
  static NodeActivity of(JobActivity activity, ActorRef node) {
    if (activity == null) {
      return NONE;
    }
    activity.nodeStarted(node);
    // The attempt the node belongs to: after a restart its count is no longer the job's.
    JobActivity.AttemptCount attempt = activity.currentAttempt();
    return new NodeActivity() {
      @Override
      public void messageSent() {
        attempt.sent();
      }

      @Override
      public void messageProcessed() {
        attempt.processed();
      }

      @Override
      public void clockAdvanceHandled() {
        activity.clockAdvanceHandled(node);
      }

      @Override
      public void stopped() {
        activity.nodeStopped(node);
      }
    };
  }
}
