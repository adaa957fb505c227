package io.arcon.runtime.node;

/**
 * Runs around each piece of a node's work on the thread that does it (an input message, a credit, a
 * poll, a timer tick, a mailbox task), so that the host of the operators can set up thread context
 * once per piece rather than once per element. {@link #enter} and {@link #exit} pair up on one
 * thread and may nest.
 */
public interface NodeWorkScope {
  /** Sets nothing up. */
  NodeWorkScope NONE =
      new NodeWorkScope() {
        @Override
        public Object enter() {
          return null;
        }

        @Override
        public void exit(Object token) {}
      };

  /**
   * Sets the thread up for the work that follows; the result goes to the matching {@link #exit}.
   */
  Object enter();

  void exit(Object token);
}
