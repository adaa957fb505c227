package io.arcon.runtime.node.output;

import io.arcon.runtime.messages.RuntimeMessage;

/** Where a node's messages to one other node instance go (its mailbox, in a running job). */
@FunctionalInterface
public interface MessageSink {
  void send(RuntimeMessage message);
}
