package io.arcon.runtime.job;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.ActorRef;

/**
 * Counts messages sent between nodes and not yet processed, so a driver such as a test stream can
 * wait until the whole job is quiescent before its next event. Also lets it wake every live node
 * when the manual clock moved.
 */
public final class JobActivity {
  private final AtomicLong inFlight = new AtomicLong();
  private final Set<ActorRef> liveNodes = ConcurrentHashMap.newKeySet();
  private volatile Object clockAdvancedMessage;

  public void sent() {
    inFlight.incrementAndGet();
  }

  public void processed() {
    inFlight.decrementAndGet();
  }

  public boolean isQuiescent() {
    return inFlight.get() == 0;
  }

  public void nodeStarted(ActorRef node) {
    liveNodes.add(node);
  }

  public void nodeStopped(ActorRef node) {
    liveNodes.remove(node);
  }

  void setClockAdvancedMessage(Object message) {
    this.clockAdvancedMessage = message;
  }

  /** Tells every live node that processing time moved (each notification counts as in flight). */
  public void broadcastClockAdvanced() {
    for (ActorRef node : liveNodes) {
      sent();
      node.tell(clockAdvancedMessage, ActorRef.noSender());
    }
  }
}
