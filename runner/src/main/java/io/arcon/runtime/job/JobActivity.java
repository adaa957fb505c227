package io.arcon.runtime.job;

import io.arcon.runtime.node.NodeSignal;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.ActorRef;

/**
 * Counts messages sent between nodes and not yet processed, so a driver such as a test stream can
 * wait until the whole job is quiescent before its next event. Also lets it wake every live node
 * when the manual clock moved.
 */
public final class JobActivity {
  /**
   * The current attempt's count. Each attempt counts apart: a failed attempt's nodes stop with
   * messages in their mailboxes that no node will ever handle, and a count carried over would keep
   * the next attempt from ever looking quiescent (a restarted test stream waited for ever).
   */
  private volatile AttemptCount inFlight = new AttemptCount();

  /**
   * Live nodes and how many clock notifications each has not yet handled. A node that stops never
   * handles what is still in its mailbox (Pekko drops it), so its unhandled notifications are taken
   * off the in-flight count when it stops; otherwise the job would never look quiescent again.
   */
  private final Map<ActorRef, Integer> pendingClockNotifications = new HashMap<>();

  /** Messages sent and not yet processed by the nodes of one attempt. */
  public static final class AttemptCount {
    private final AtomicLong messages = new AtomicLong();

    public void sent() {
      messages.incrementAndGet();
    }

    public void processed() {
      messages.decrementAndGet();
    }
  }

  /**
   * Starts counting a new attempt: call it before the attempt's nodes are created. The previous
   * attempt's nodes keep reporting into its count, which nobody reads any more.
   */
  public synchronized void newAttempt() {
    inFlight = new AttemptCount();
    pendingClockNotifications.clear();
  }

  /** The count that nodes created now (in the current attempt) report into. */
  public AttemptCount currentAttempt() {
    return inFlight;
  }

  /** Messages sent and not yet processed in the current attempt (for diagnostics). */
  public long inFlight() {
    return inFlight.messages.get();
  }

  public boolean isQuiescent() {
    return inFlight.messages.get() == 0;
  }

  /**
   * {@code node} is live and gets clock notifications until it stops. Nodes register themselves as
   * they start ({@code NodeActivity.of}), so that no node can stop before it registered.
   */
  public synchronized void nodeStarted(ActorRef node) {
    pendingClockNotifications.put(node, 0);
  }

  public synchronized void nodeStopped(ActorRef node) {
    Integer unhandled = pendingClockNotifications.remove(node);
    if (unhandled != null && unhandled > 0) {
      inFlight.messages.addAndGet(-unhandled);
    }
  }

  /** Tells every live node that processing time moved (each notification counts as in flight). */
  public synchronized void broadcastClockAdvanced() {
    for (Map.Entry<ActorRef, Integer> node : pendingClockNotifications.entrySet()) {
      node.setValue(node.getValue() + 1);
      inFlight.sent();
      node.getKey().tell(NodeSignal.CLOCK_ADVANCED, ActorRef.noSender());
    }
  }

  /** A node handled one clock notification (it must still be live: stopped nodes handle none). */
  public synchronized void clockAdvanceHandled(ActorRef node) {
    Integer pending = pendingClockNotifications.get(node);
    if (pending != null && pending > 0) {
      pendingClockNotifications.put(node, pending - 1);
      inFlight.processed();
    }
  }
}
