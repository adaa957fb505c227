package io.arcon.runner.webui;

import io.arcon.runtime.observe.NodeStats;
import java.util.List;

/**
 * The two newest readings of a job's node figures, from which the UI computes rates and
 * back-pressure shares. A reader thread of the server takes a reading about once a second; the
 * nodes do no work for it (they only publish their counters, see {@link NodeStats}).
 */
final class LiveFigures {
  /**
   * All node instances of the job at one moment.
   *
   * @param wallMillis wall-clock time of the reading (watermark lags are measured against it)
   * @param nanos {@link System#nanoTime()} of the reading (rates are measured against it)
   * @param state the job's state just before the nodes were read
   * @param nodes by vertex (in graph order), then instance
   * @param isFinal the job had ended and no node ran any more: these figures are its last
   */
  record Reading(
      long wallMillis, long nanos, String state, List<NodeStats.Sample> nodes, boolean isFinal) {}

  /**
   * The newest reading and the one before it (null before the second reading).
   *
   * @param previous what rates are measured against
   */
  record Window(Reading previous, Reading latest) {
    /** Seconds between the two readings; 0 when there is only one. */
    double seconds() {
      return previous == null ? 0 : (latest.nanos() - previous.nanos()) / 1e9;
    }

    /**
     * Rates are shown only while the job runs: an ended job's last rates would read as current long
     * after it stopped.
     */
    boolean hasRates() {
      return previous != null && !latest.isFinal() && seconds() > 0;
    }
  }

  private final ObservedJob job;
  private Reading previous; // guarded by this
  private Reading latest; // guarded by this

  LiveFigures(ObservedJob job) {
    this.job = job;
    this.latest = read();
  }

  /** Takes a new reading unless the job's last one was taken already. */
  synchronized void sample() {
    if (!latest.isFinal()) {
      previous = latest;
      latest = read();
    }
  }

  /**
   * The newest two readings. When the job has ended since the newest reading, its figures are read
   * again first, so a reader never sees an ended job with figures older than its end.
   */
  synchronized Window window() {
    if (!latest.isFinal() && !"RUNNING".equals(job.state())) {
      // The job ended since the newest reading.
      previous = latest;
      latest = read();
    }
    return new Window(previous, latest);
  }

  /** Whether the job's final figures were read (nothing changes any more). */
  synchronized boolean ended() {
    return latest.isFinal();
  }

  private Reading read() {
    // The state first: a job is DONE only after every node finished, so the figures read after it
    // are final. A failed or cancelled job's other nodes stop a moment later: final once none runs.
    String state = job.state();
    List<NodeStats.Sample> nodes = job.stats().sampleNodes();
    boolean isFinal =
        !"RUNNING".equals(state)
            && nodes.stream()
                .noneMatch(
                    n ->
                        n.status() == NodeStats.Status.RUNNING
                            || n.status() == NodeStats.Status.CREATED);
    return new Reading(System.currentTimeMillis(), System.nanoTime(), state, nodes, isFinal);
  }
}
