package io.arcon.runtime.job;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Quiescence counting of a test stream's driver, in particular around nodes that stop. */
class JobActivityTest {
  private ActorSystem system;
  private ActorRef node;

  /** Ignores everything: the test plays the node's part by calling the activity directly. */
  static final class SilentNode extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> {}).build();
    }
  }

  @BeforeEach
  void start() {
    system = ActorSystem.create("job-activity-test");
    node = system.actorOf(Props.create(SilentNode.class, SilentNode::new));
  }

  @AfterEach
  void stop() {
    system.terminate();
  }

  private JobActivity activityWithLiveNode() {
    JobActivity activity = new JobActivity();
    activity.nodeStarted(node);
    return activity;
  }

  @Test
  void aHandledClockNotificationMakesTheJobQuiescentAgain() {
    JobActivity activity = activityWithLiveNode();
    activity.broadcastClockAdvanced();
    assertFalse(activity.isQuiescent());
    activity.clockAdvanceHandled(node);
    assertTrue(activity.isQuiescent());
    // A second acknowledgement of the same notification must not drive the count negative.
    activity.clockAdvanceHandled(node);
    activity.currentAttempt().sent();
    assertFalse(activity.isQuiescent());
  }

  @Test
  void aNodeThatStopsWithUnhandledNotificationsDoesNotKeepTheJobBusy() {
    JobActivity activity = activityWithLiveNode();
    activity.broadcastClockAdvanced();
    activity.broadcastClockAdvanced();
    assertFalse(activity.isQuiescent());
    // Pekko drops what is left in a stopped actor's mailbox: those notifications are never
    // handled, so stopping must account for them.
    activity.nodeStopped(node);
    assertTrue(activity.isQuiescent());
    activity.broadcastClockAdvanced();
    assertTrue(activity.isQuiescent(), "a stopped node gets no more notifications");
  }

  @Test
  void messagesBetweenNodesStillCount() {
    JobActivity activity = activityWithLiveNode();
    JobActivity.AttemptCount attempt = activity.currentAttempt();
    attempt.sent();
    activity.nodeStopped(node);
    assertFalse(activity.isQuiescent(), "a batch in flight is not a clock notification");
    attempt.processed();
    assertTrue(activity.isQuiescent());
  }

  /**
   * A failed attempt's nodes stop with batches in their mailboxes that nobody handles: the next
   * attempt counts apart, and what the old nodes still report does not touch its count.
   */
  @Test
  void aNewAttemptStartsQuiescentWhateverTheFailedOneLeftInFlight() {
    JobActivity activity = activityWithLiveNode();
    JobActivity.AttemptCount failed = activity.currentAttempt();
    failed.sent();
    failed.sent();
    activity.broadcastClockAdvanced();
    assertFalse(activity.isQuiescent());

    activity.newAttempt();
    assertTrue(activity.isQuiescent(), "nothing of the failed attempt can still be handled");
    failed.processed();
    activity.clockAdvanceHandled(node);
    activity.nodeStopped(node);
    assertTrue(activity.isQuiescent(), "late reports of the old nodes are not counted");

    JobActivity.AttemptCount restarted = activity.currentAttempt();
    restarted.sent();
    assertFalse(activity.isQuiescent());
    restarted.processed();
    assertTrue(activity.isQuiescent());
  }
}
