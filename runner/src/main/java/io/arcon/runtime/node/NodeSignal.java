package io.arcon.runtime.node;

/** Messages a node sends itself, or gets from the job (start, clock moves). */
public enum NodeSignal {
  /** Every node of the job is set up; work may start. */
  START,
  /** A source may emit more data. */
  POLL,
  /** Time to check bundle age and processing-time timers. */
  TICK,
  /** The job's manual clock moved: fire due processing-time timers (counted as in flight). */
  CLOCK_ADVANCED
}
