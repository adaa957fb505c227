package io.arcon.runtime.node;

/** Messages a node sends itself. */
final class NodeMessages {
  private NodeMessages() {}

  /** Every node of the job is set up; work may start. */
  static final Object START =
      new Object() {
        @Override
        public String toString() {
          return "Start";
        }
      };

  /** A source may emit more data. */
  static final Object POLL =
      new Object() {
        @Override
        public String toString() {
          return "Poll";
        }
      };

  /** The job's manual clock moved: fire due processing-time timers (counted as in flight). */
  static final Object CLOCK_ADVANCED =
      new Object() {
        @Override
        public String toString() {
          return "ClockAdvanced";
        }
      };

  /** Time to check bundle age and processing-time timers. */
  static final Object TICK =
      new Object() {
        @Override
        public String toString() {
          return "Tick";
        }
      };
}
