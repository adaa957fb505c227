package io.arcon.runtime.node;

/** Messages a node sends itself. */
final class NodeMessages {
  private NodeMessages() {}

  /** A source may emit more data. */
  static final Object POLL = new Object() {
        @Override
        public String toString() {
          return "Poll";
        }
      };

  /** Time to check bundle age and processing-time timers. */
  static final Object TICK = new Object() {
        @Override
        public String toString() {
          return "Tick";
        }
      };
}
