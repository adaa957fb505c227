package io.arcon.runtime.node.bundle;

import io.arcon.runtime.job.JobClock;

/**
 * Opens and closes a node's bundles: one is opened by the first work that needs it (elements,
 * watermarks, timers) and finished by size ({@code --maxBundleSize}), by age ({@code
 * --maxBundleTimeMills}), by a watermark, or after every message when bundles are eager.
 */
public final class BundleController {
  /** What starting and finishing a bundle does in the node. */
  public interface Bundle {
    void start() throws Exception;

    /** Ends the bundle: operators flush and what they emitted is sent. */
    void finish() throws Exception;
  }

  private final Bundle bundle;
  private final JobClock clock;
  private final long maxSize;
  private final long maxTimeMillis;
  private final boolean eager;
  private boolean open;
  private long elements;
  private long startedAt;

  /**
   * @param eager finish the bundle after every message (test streams need outputs visible as soon
   *     as a message is handled, to detect quiescence)
   */
  public BundleController(
      Bundle bundle, JobClock clock, long maxSize, long maxTimeMillis, boolean eager) {
    this.bundle = bundle;
    this.clock = clock;
    this.maxSize = maxSize;
    this.maxTimeMillis = maxTimeMillis;
    this.eager = eager;
  }

  /** Opens a bundle unless one is open. */
  public void ensureOpen() throws Exception {
    if (!open) {
      open = true;
      elements = 0;
      startedAt = clock.nowMillis();
      bundle.start();
    }
  }

  /** Finishes the open bundle, if any. */
  public void finish() throws Exception {
    if (open) {
      open = false;
      bundle.finish();
    }
  }

  public boolean isOpen() {
    return open;
  }

  /** Counts {@code count} elements into the open bundle; finishes it once it is full. */
  public void added(long count) throws Exception {
    elements += count;
    if (elements >= maxSize) {
      finish();
    }
  }

  /**
   * Finishes the open bundle if it is at least {@code --maxBundleTimeMills} old at {@code
   * nowMillis}.
   */
  public void finishIfExpired(long nowMillis) throws Exception {
    if (open && nowMillis - startedAt >= maxTimeMillis) {
      finish();
    }
  }

  /** A message was handled: eager bundles end here. */
  public void messageHandled() throws Exception {
    if (eager) {
      finish();
    }
  }

  public boolean isEager() {
    return eager;
  }

  /** When the open bundle expires ({@code Long.MAX_VALUE} without one). */
  public long deadline() {
    return open ? startedAt + maxTimeMillis : Long.MAX_VALUE;
  }
}
