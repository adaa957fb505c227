package io.arcon.runtime.observe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Live figures of one node instance (a vertex's parallel instance), for the web UI and {@code
 * /metrics}. Written only by the node's own thread, read by any: every field is published with
 * opaque stores (atomic, no fence on the hot path), so a reader sees each figure whole, possibly a
 * moment old. The writer updates at batch granularity, never per element.
 *
 * <p>One object lives as long as the job: a restarted attempt's node continues its counts.
 */
public final class NodeStats {
  /** Where the instance stands. */
  public enum Status {
    CREATED,
    RUNNING,
    FINISHED,
    FAILED,
    CANCELLED
  }

  private static final VarHandle RECORDS_IN;
  private static final VarHandle RECORDS_OUT;
  private static final VarHandle INPUT_WATERMARK;
  private static final VarHandle OUTPUT_WATERMARK;
  private static final VarHandle BLOCKED_NANOS;
  private static final VarHandle BLOCKED_SINCE;
  private static final VarHandle STATE_BYTES;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      RECORDS_IN = lookup.findVarHandle(NodeStats.class, "recordsIn", long.class);
      RECORDS_OUT = lookup.findVarHandle(NodeStats.class, "recordsOut", long.class);
      INPUT_WATERMARK = lookup.findVarHandle(NodeStats.class, "inputWatermark", long.class);
      OUTPUT_WATERMARK = lookup.findVarHandle(NodeStats.class, "outputWatermark", long.class);
      BLOCKED_NANOS = lookup.findVarHandle(NodeStats.class, "blockedNanos", long.class);
      BLOCKED_SINCE = lookup.findVarHandle(NodeStats.class, "blockedSince", long.class);
      STATE_BYTES = lookup.findVarHandle(NodeStats.class, "stateBytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** How often, at most, a node measures its state engines (they may walk their tables). */
  static final long STATE_SAMPLE_PERIOD_NANOS = 1_000_000_000L;

  private final int vertexId;
  private final int instance;
  private long recordsIn;
  private long recordsOut;
  private long inputWatermark = Long.MIN_VALUE;
  private long outputWatermark = Long.MIN_VALUE;
  private long blockedNanos;
  private long blockedSince; // System.nanoTime() when output blocked, 0 while it is not
  private long stateBytes = -1; // -1: the instance keeps no state
  private long lastStateSample = Long.MIN_VALUE; // writer only
  private volatile String stateEngines = "";
  private volatile Status status = Status.CREATED;

  NodeStats(int vertexId, int instance) {
    this.vertexId = vertexId;
    this.instance = instance;
  }

  /** A node that nobody observes (tests that start nodes by hand). */
  public static NodeStats unobserved(int vertexId, int instance) {
    return new NodeStats(vertexId, instance);
  }

  // ---- writer side: the node's thread ----

  /** A new attempt's node took over this instance. */
  public void started() {
    if (blockedSince != 0) {
      BLOCKED_NANOS.setOpaque(this, blockedNanos + (System.nanoTime() - blockedSince));
      BLOCKED_SINCE.setOpaque(this, 0L);
    }
    status = Status.RUNNING;
  }

  public void recordsIn(int count) {
    RECORDS_IN.setOpaque(this, recordsIn + count);
  }

  public void recordsOut(long count) {
    RECORDS_OUT.setOpaque(this, recordsOut + count);
  }

  public void inputWatermark(long watermark) {
    if (watermark != inputWatermark) {
      INPUT_WATERMARK.setOpaque(this, watermark);
    }
  }

  public void outputWatermark(long watermark) {
    if (watermark != outputWatermark) {
      OUTPUT_WATERMARK.setOpaque(this, watermark);
    }
  }

  /**
   * Whether output waits for credits after the last handled message; the time between a blocked and
   * the next unblocked call counts as back-pressured.
   */
  public void outputBlocked(boolean blocked) {
    if (blocked) {
      if (blockedSince == 0) {
        BLOCKED_SINCE.setOpaque(this, nonZero(System.nanoTime()));
      }
    } else if (blockedSince != 0) {
      BLOCKED_NANOS.setOpaque(this, blockedNanos + (System.nanoTime() - blockedSince));
      BLOCKED_SINCE.setOpaque(this, 0L);
    }
  }

  private static long nonZero(long nanos) {
    return nanos == 0 ? 1 : nanos;
  }

  /** True when the state engines are due to be measured again (at most once a second). */
  public boolean stateSampleDue() {
    long now = System.nanoTime();
    if (lastStateSample != Long.MIN_VALUE && now - lastStateSample < STATE_SAMPLE_PERIOD_NANOS) {
      return false;
    }
    lastStateSample = now;
    return true;
  }

  /** The instance's state engines (comma-separated, in chain order) and their bytes. */
  public void state(String engines, long bytes) {
    if (!engines.equals(stateEngines)) {
      stateEngines = engines;
    }
    STATE_BYTES.setOpaque(this, bytes);
  }

  /** The instance ended with {@code status} (finished, failed or cancelled). */
  public void ended(Status status) {
    outputBlocked(false);
    this.status = status;
  }

  /** Ends the instance with {@code status} unless it already finished or failed. */
  public void endedIfRunning(Status status) {
    if (this.status == Status.RUNNING || this.status == Status.CREATED) {
      ended(status);
    }
  }

  // ---- reader side: any thread ----

  /** The figures now. */
  public Sample sample() {
    long since = (long) BLOCKED_SINCE.getOpaque(this);
    long blocked = (long) BLOCKED_NANOS.getOpaque(this);
    if (since != 0) {
      blocked += Math.max(0, System.nanoTime() - since);
    }
    return new Sample(
        vertexId,
        instance,
        status,
        (long) RECORDS_IN.getOpaque(this),
        (long) RECORDS_OUT.getOpaque(this),
        (long) INPUT_WATERMARK.getOpaque(this),
        (long) OUTPUT_WATERMARK.getOpaque(this),
        blocked,
        stateEngines,
        (long) STATE_BYTES.getOpaque(this));
  }

  /**
   * One reading of a node instance.
   *
   * @param recordsIn elements received from upstream nodes since the job started
   * @param recordsOut elements sent to downstream nodes (a broadcast element counts once per
   *     receiver)
   * @param inputWatermark the chain's input watermark, {@code Long.MIN_VALUE} before the first
   * @param outputWatermark the watermark the chain last sent (or would send, without outputs)
   * @param blockedNanos total time the node's output waited for credits (back-pressure)
   * @param stateEngines the engines of the instance's state backends, comma-separated; empty when
   *     it keeps no state
   * @param stateBytes their approximate size, -1 when it keeps no state
   */
  public record Sample(
      int vertexId,
      int instance,
      Status status,
      long recordsIn,
      long recordsOut,
      long inputWatermark,
      long outputWatermark,
      long blockedNanos,
      String stateEngines,
      long stateBytes) {}
}
