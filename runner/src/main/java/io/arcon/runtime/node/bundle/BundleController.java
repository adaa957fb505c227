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
   * Elements handed to the chain between two looks at the clock (see {@link #slice}): starts small,
   * doubles while a slice takes at most an eighth of {@code --maxBundleTimeMills}, and drops to one
   * when a slice takes longer. A fast chain so looks at the clock about once per batch, and a slow
   * one (a DoFn that takes milliseconds per element) after every element, so that its bundles still
   * end on time: a whole batch of 512 such elements once kept a bundle, and so its output, open for
   * 25 s.
   */
  private int slice = FIRST_SLICE;

  private long sliceStartedAt;

  static final int FIRST_SLICE = 1;

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

  /**
   * How many of {@code available} elements to hand to the open bundle before {@link #handedIn}: at
   * least one, no more than the bundle has room for ({@code --maxBundleSize}), and no more than the
   * current slice.
   */
  public int slice(int available) {
    sliceStartedAt = clock.nowMillis();
    long room = Math.max(1, maxSize - elements);
    return (int) Math.max(1, Math.min(Math.min(available, slice), room));
  }

  /**
   * Counts {@code count} elements of a {@link #slice} into the open bundle; finishes it once it is
   * full or older than {@code --maxBundleTimeMills}.
   */
  public void handedIn(int count) throws Exception {
    long now = clock.nowMillis();
    if (now - sliceStartedAt > maxTimeMillis / 8) {
      slice = 1;
    } else if (slice < Integer.MAX_VALUE / 2) {
      slice *= 2;
    }
    elements += count;
    if (elements >= maxSize || now - startedAt >= maxTimeMillis) {
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
