package io.arcon.runtime.job;

import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.ActorRef;

/**
 * Holds a job's work back until every node instance has finished its setup (operators opened, DoFns
 * set up), then tells all of them to start. Without it a fast node could run to completion and tear
 * its DoFns down while a slow one is still being set up.
 */
public final class StartGate {
  private final int expected;
  private final Object startMessage;
  private final List<ActorRef> ready = new ArrayList<>();

  public StartGate(int expected, Object startMessage) {
    this.expected = expected;
    this.startMessage = startMessage;
  }

  /** A node finished its setup; the last one opens the gate for all. */
  public void ready(ActorRef node) {
    List<ActorRef> toStart;
    synchronized (this) {
      ready.add(node);
      if (ready.size() != expected) {
        return;
      }
      toStart = List.copyOf(ready);
    }
    for (ActorRef n : toStart) {
      n.tell(startMessage, ActorRef.noSender());
    }
  }
}
