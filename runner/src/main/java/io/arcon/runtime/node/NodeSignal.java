package io.arcon.runtime.node;

/** Messages a node sends itself, or gets from the job (start, clock moves). */
public enum NodeSignal {
  /** Every node of the job is set up; work may start. */
  START,
  /** A source may emit more data (sent to itself at once: it has data, or its output freed up). */
  POLL,
  /** A source that had nothing to emit looks again (sent to itself with a delay). */
  POLL_LATER,
  /** Time to check bundle age and processing-time timers. */
  TICK,
  /** The job's manual clock moved: fire due processing-time timers (counted as in flight). */
  CLOCK_ADVANCED
}
