package io.arcon.runtime.dispatch;

/**
 * How a job's pinned node threads ({@link StickyExecutor}) have run so far: what {@code /metrics}
 * shows, so that nodes taken off their threads, and DoFns that block every thread, are visible.
 *
 * @param threads the pool's own threads (one per processor by default)
 * @param steals tasks an idle or spare thread took from a thread stuck in another task for over the
 *     steal delay: each is a node that ran away from its home thread (and its caches)
 * @param sparesStarted spare threads started because every thread was blocked while nodes waited
 * @param sparesRunning spare threads running now
 */
public record NodeThreadFigures(int threads, long steals, long sparesStarted, int sparesRunning) {
  /** These figures once the pool has stopped: the counts stay, no spare runs any more. */
  public NodeThreadFigures stopped() {
    return new NodeThreadFigures(threads, steals, sparesStarted, 0);
  }

  /** These figures after {@code earlier}'s (a job's previous attempts): counts add up. */
  public NodeThreadFigures after(NodeThreadFigures earlier) {
    return new NodeThreadFigures(
        threads, earlier.steals + steals, earlier.sparesStarted + sparesStarted, sparesRunning);
  }
}
