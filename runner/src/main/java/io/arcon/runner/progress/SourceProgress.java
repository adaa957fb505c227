package io.arcon.runner.progress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one source instance (a read's parallel instance, in one attempt) has read. Written only by
 * the instance's node thread, once per poll (a batch of elements), never per element; read by any
 * thread. Fields are published with opaque stores, as in {@code NodeStats}: each figure is seen
 * whole, possibly a moment old, with no fence on the node's path.
 */
public final class SourceProgress {
  /** A figure not known (yet): no estimate, or a reader that cannot tell how far it got. */
  public static final long UNKNOWN = -1;

  private static final VarHandle ELEMENTS;
  private static final VarHandle BYTES_READ;
  private static final VarHandle ESTIMATED_BYTES;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      ELEMENTS = lookup.findVarHandle(SourceProgress.class, "elements", long.class);
      BYTES_READ = lookup.findVarHandle(SourceProgress.class, "bytesRead", long.class);
      ESTIMATED_BYTES = lookup.findVarHandle(SourceProgress.class, "estimatedBytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final boolean bounded;
  private long elements;
  private long bytesRead = UNKNOWN;
  private long estimatedBytes = UNKNOWN;

  SourceProgress(boolean bounded) {
    this.bounded = bounded;
  }

  /** Counters that nobody reads: for a source that runs outside a job's run (operator tests). */
  public static SourceProgress unobserved(boolean bounded) {
    return new SourceProgress(bounded);
  }

  // ---- writer side: the source instance's node thread ----

  /** The estimated size of everything this instance reads, {@link #UNKNOWN} if there is none. */
  public void estimatedBytes(long bytes) {
    ESTIMATED_BYTES.setOpaque(this, bytes < 0 ? UNKNOWN : bytes);
  }

  /**
   * Where the instance stands after a poll.
   *
   * @param elements elements read since the instance opened
   * @param bytes bytes read since it opened, {@link #UNKNOWN} if it cannot tell
   */
  public void read(long elements, long bytes) {
    ELEMENTS.setOpaque(this, elements);
    BYTES_READ.setOpaque(this, bytes < 0 ? UNKNOWN : bytes);
  }

  // ---- reader side: any thread ----

  public Sample sample() {
    return new Sample(
        bounded,
        (long) ELEMENTS.getOpaque(this),
        (long) BYTES_READ.getOpaque(this),
        (long) ESTIMATED_BYTES.getOpaque(this));
  }

  /**
   * One reading of a source instance.
   *
   * @param bounded false for an unbounded (unbounded source) source, which has no size
   * @param elements elements read
   * @param bytesRead bytes read, {@link #UNKNOWN} if not known
   * @param estimatedBytes the estimated size of what the instance reads, {@link #UNKNOWN} if not
   *     known
   */
  public record Sample(boolean bounded, long elements, long bytesRead, long estimatedBytes) {}
}
