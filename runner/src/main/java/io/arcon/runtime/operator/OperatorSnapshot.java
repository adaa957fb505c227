package io.arcon.runtime.operator;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Where one operator instance writes its part of an epoch's snapshot. The node calls {@link
 * Operator#snapshotState} between bundles, once the epoch's markers arrived on every input, so the
 * state written is exactly the effect of the input before the markers.
 */
public interface OperatorSnapshot {
  /** The epoch being snapshotted (1, 2, ...). */
  long epoch();

  /**
   * An empty directory private to this operator instance in this epoch (created on first call).
   * Everything in it becomes part of the checkpoint and is checksummed by the epoch's manifest.
   */
  Path directory();

  /**
   * Registers work that finishes the snapshot off the node's thread (e.g. copying a persistent
   * engine's files). The node acknowledges the epoch only when every such part completed; a part
   * that fails fails the epoch, not the job. The part must not touch state the node keeps changing.
   */
  void completeAsync(CompletableFuture<?> part);
}
