package io.arcon.runtime.node.activity;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.arcon.runtime.job.JobActivity;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NodeActivityTest {
  private ActorSystem system;

  /** A live node to address clock notifications to (the tests play its part). */
  private ActorRef node;

  /** Only the job's clock notifications need a live node to address; it ignores them. */
  static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> {}).build();
    }
  }

  @BeforeEach
  void start() {
    system = ActorSystem.create("node-activity-test");
    node = system.actorOf(Props.create(Idle.class, Idle::new));
  }

  @AfterEach
  void stop() {
    system.terminate();
  }

  @Test
  void withoutAJobActivityNothingIsReported() {
    assertSame(NodeActivity.NONE, NodeActivity.of(null, ActorRef.noSender()));
  }

  @Test
  void reportsMessagesAndClockNotificationsOfItsNode() {
    JobActivity job = new JobActivity();
    NodeActivity activity = NodeActivity.of(job, node);
    activity.messageSent();
    assertFalse(job.isQuiescent());
    activity.messageProcessed();
    assertTrue(job.isQuiescent());

    job.broadcastClockAdvanced(); // one notification in flight toward the node
    assertFalse(job.isQuiescent());
    activity.clockAdvanceHandled();
    assertTrue(job.isQuiescent());

    job.broadcastClockAdvanced();
    activity.stopped(); // a stopped node never handles it: it no longer counts
    assertTrue(job.isQuiescent());
  }

  /**
   * A node is registered by its own start, so a node that finishes at once (an idle source
   * instance) is never registered after it stopped: no clock notification goes to it later and
   * waits for ever to be handled.
   */
  @Test
  void aNodeThatStartsAndStopsAtOnceGetsNoLaterClockNotification() {
    JobActivity job = new JobActivity();
    NodeActivity.of(job, node).stopped();
    job.broadcastClockAdvanced();
    assertTrue(job.isQuiescent(), "the stopped node must not be counted as due a notification");
  }
}
