package io.arcon.runner.tss;

import io.arcon.runner.state.BackendStateInternals;
import io.arcon.runner.state.history.OnDemandRecording;
import io.arcon.runner.state.history.StateHistory;
import io.arcon.runtime.operator.OperatorContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TSS side of one parallel instance of an exported stateful ParDo. On the node's thread it
 * keeps the version chains of the transform's states (through {@link StateHistory}), prunes them as
 * the watermark leaves {@code --stateHistory} behind, and tells the pipeline's {@link TssLink} its
 * watermark and its end. An exact transform's chains are kept all along; a watermark-cut one's only
 * while some TSS reads its states ({@link OnDemandRecording}, switched by {@link #readByTss}). From
 * the agent's thread it serves reads of a version in chunks, each run in the node's mailbox between
 * bundles, so extraction never runs concurrently with the operators and a large state does not
 * stall the pipeline.
 */
public final class InstanceExport implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InstanceExport.class);

  private final TransformExport transform;
  private final int instance;
  private final StateHistory history;

  /** Null for an exact transform, whose chains are recorded all along. */
  private final OnDemandRecording onDemand;

  private final Executor mailbox;
  private final long historyMillis;

  /** How far the horizon moves between prunes, and the width of the chains' segments. */
  private final long pruneStepMillis;

  private final Set<CompletableFuture<?>> pendingReads = ConcurrentHashMap.newKeySet();

  // Node thread only.
  private long maxEventTime = Long.MIN_VALUE;
  private long prunedTo = Long.MIN_VALUE;
  private boolean ended;

  private volatile boolean closed;

  /** Where this instance's watermark goes; set by the link when the instance opens. */
  private TssLink.Progress progress;

  /** Whether the chains are recorded now: always for an exact transform. Written by the node. */
  private volatile boolean recording;

  InstanceExport(
      TransformExport transform,
      BackendStateInternals<?> internals,
      OperatorContext context,
      LongSupplier inputWatermark) {
    this.transform = transform;
    this.instance = context.instanceIndex();
    this.mailbox = context.mailbox();
    Map<String, Boolean> exact = new HashMap<>();
    transform.specs().keySet().forEach(id -> exact.put(id, transform.exact()));
    this.historyMillis = transform.link().settings().stateHistory().toMillis();
    this.pruneStepMillis = Math.max(1000, historyMillis / 8);
    this.history =
        internals.enableHistory(transform.specs(), exact, inputWatermark, pruneStepMillis);
    this.onDemand = transform.exact() ? null : internals.recordHistoryOnDemand(inputWatermark);
    this.recording = onDemand == null;
    transform.link().instanceOpened(this);
  }

  /**
   * Whether some TSS reads the transform's states now (from any thread): a watermark-cut transform
   * records its chains only while one does. Switched in the node's mailbox, between bundles.
   */
  void readByTss(boolean read) {
    if (onDemand == null || closed) {
      return;
    }
    mailbox.execute(() -> switchRecording(read));
  }

  /** On the node's thread. */
  void switchRecording(boolean read) {
    if (onDemand == null || closed || read == onDemand.isOn()) {
      return;
    }
    if (read) {
      long from = onDemand.start();
      LOG.debug(
          "TSS: {} instance {} records its watermark-cut states for versions from {}",
          transform.transform(),
          instance,
          from == Long.MIN_VALUE ? "any time" : java.time.Instant.ofEpochMilli(from));
    } else {
      onDemand.stop();
      LOG.debug(
          "TSS: {} instance {} stopped recording (no TSS reads it)",
          transform.transform(),
          instance);
    }
    recording = onDemand.isOn();
    transform.link().instanceRecording();
  }

  /** Whether this instance records its chains now (any thread). */
  boolean recording() {
    return recording;
  }

  /** Whether the transform's states are watermark cuts, recorded only while read. */
  boolean recordsOnDemand() {
    return onDemand != null;
  }

  public String transform() {
    return transform.transform();
  }

  public int instance() {
    return instance;
  }

  /** An element with this event time was processed (the app's end is after the last one). */
  public void eventProcessed(long timestampMillis) {
    if (timestampMillis > maxEventTime) {
      maxEventTime = timestampMillis;
    }
  }

  /**
   * The operator's input watermark advanced and everything before it was processed: versions before
   * it are complete in this instance. Prunes history that left {@code --stateHistory}.
   */
  public void watermarkAdvanced(long watermark) {
    if (watermark == Long.MAX_VALUE) {
      if (!ended) {
        ended = true;
        transform.link().instanceEnded(this, maxEventTime);
      }
      return;
    }
    long horizon = Math.min(watermark - historyMillis, transform.link().oldestVersionInFlight());
    if (horizon > Long.MIN_VALUE + pruneStepMillis) {
      // On a segment boundary: the prune drops whole segments and rewrites none.
      horizon -= Math.floorMod(horizon, pruneStepMillis);
    }
    // A walk over the history, so not on every watermark: once per eighth of the history.
    if (recording
        && horizon > prunedTo
        && (prunedTo == Long.MIN_VALUE || horizon - prunedTo >= pruneStepMillis)) {
      history.prune(horizon);
      prunedTo = horizon;
    }
    // The app's horizon bounds CREATE's AT for exact states; the control plane checks a watermark
    // cut's AT against the app's watermark instead (its chains start when a TSS reads it).
    transform
        .link()
        .instanceWatermark(
            this, watermark, onDemand == null ? history.oldestAvailableMillis() : Long.MIN_VALUE);
  }

  /** True once the control plane has every version due up to the app's end. */
  public boolean drained() {
    return transform.link().drained();
  }

  /**
   * Reads up to {@code maxCells} cells of {@code stateId} as of {@code versionMillis}, after {@code
   * cursor}, on the node between bundles.
   */
  CompletableFuture<StateHistory.Chunk> readChunk(
      String stateId, long versionMillis, byte[] onlyEncodedKey, byte[] cursor, int maxCells) {
    CompletableFuture<StateHistory.Chunk> result = new CompletableFuture<>();
    if (closed) {
      result.completeExceptionally(stopped());
      return result;
    }
    pendingReads.add(result);
    result.whenComplete((r, e) -> pendingReads.remove(result));
    mailbox.execute(
        () -> {
          try {
            if (closed) {
              throw stopped();
            }
            long oldest = history.oldestAvailableMillis();
            if (versionMillis < oldest && onDemand == null) {
              throw new IllegalStateException(
                  "version "
                      + java.time.Instant.ofEpochMilli(versionMillis)
                      + " of "
                      + transform.transform()
                      + " is older than its kept state history (from "
                      + java.time.Instant.ofEpochMilli(oldest)
                      + "); run the app with a longer --stateHistory");
            }
            result.complete(
                history.cellsAt(stateId, versionMillis, onlyEncodedKey, cursor, maxCells));
          } catch (Throwable t) {
            result.completeExceptionally(t);
          }
        });
    // A mailbox task is lost when the node stops; close() fails what is still pending.
    if (closed) {
      result.completeExceptionally(stopped());
    }
    return result;
  }

  /** Makes the node look at its pending work again (the app's versions were taken). */
  void wake() {
    if (!closed) {
      mailbox.execute(() -> {});
    }
  }

  void reportsTo(TssLink.Progress progress) {
    this.progress = progress;
  }

  TssLink.Progress progress() {
    return progress;
  }

  private IllegalStateException stopped() {
    return new IllegalStateException(
        "instance " + instance + " of " + transform.transform() + " has stopped");
  }

  @Override
  public void close() {
    closed = true;
    for (CompletableFuture<?> pending : pendingReads) {
      pending.completeExceptionally(stopped());
    }
    transform.link().instanceClosed(this);
  }

  /** How long the agent waits for one chunk before it gives the version up. */
  static final Duration CHUNK_TIMEOUT = Duration.ofMinutes(2);
}
