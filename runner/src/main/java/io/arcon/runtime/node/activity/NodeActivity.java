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

  /** Reports to {@code activity} as {@code node}, or nothing when {@code activity} is null. */
  static NodeActivity of(JobActivity activity, ActorRef node) {
    if (activity == null) {
      return NONE;
    }
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
