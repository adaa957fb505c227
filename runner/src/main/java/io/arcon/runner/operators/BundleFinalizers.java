package io.arcon.runner.operators;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.transforms.DoFn;
import org.joda.time.Instant;

/**
 * Callbacks registered with {@link DoFn.BundleFinalizer}; run once the bundle is committed, unless
 * they expired: when its output has been handed to the runtime, or with epochs when the epoch that
 * contains the bundle is durable.
 */
final class BundleFinalizers implements DoFn.BundleFinalizer {
  private record Pending(Instant expiry, Callback callback) {}

  private final List<Pending> pending = new ArrayList<>();

  /**
   * With epochs, callbacks of committed bundles wait for the epoch that contains the bundle to be
   * durable (a restart would replay the bundle otherwise): those of bundles since the last cut, and
   * those of cut epochs not yet complete.
   */
  private final boolean awaitEpochs;

  private final List<Pending> sinceCut = new ArrayList<>();
  private final TreeMap<Long, List<Pending>> byEpoch = new TreeMap<>();

  /** Callbacks run right after their bundle. */
  BundleFinalizers() {
    this(false);
  }

  BundleFinalizers(boolean awaitEpochs) {
    this.awaitEpochs = awaitEpochs;
  }

  @Override
  public void afterBundleCommit(Instant callbackExpiry, Callback callback) {
    pending.add(new Pending(callbackExpiry, callback));
  }

  void finalizeBundle() throws Exception {
    if (pending.isEmpty()) {
      return;
    }
    List<Pending> run = new ArrayList<>(pending);
    pending.clear();
    if (awaitEpochs) {
      sinceCut.addAll(run);
      return;
    }
    runUnexpired(run);
  }

  /** Epoch {@code epoch} is cut: the callbacks so far wait for it. */
  void epochCut(long epoch) {
    if (!sinceCut.isEmpty()) {
      byEpoch.put(epoch, new ArrayList<>(sinceCut));
      sinceCut.clear();
    }
  }

  /** Epoch {@code epoch} is durable: runs the callbacks of every epoch up to it. */
  void epochCompleted(long epoch) throws Exception {
    Map<Long, List<Pending>> due = byEpoch.headMap(epoch, true);
    List<Pending> run = new ArrayList<>();
    due.values().forEach(run::addAll);
    due.clear();
    runUnexpired(run);
  }

  private static void runUnexpired(List<Pending> run) throws Exception {
    Instant now = Instant.now();
    for (Pending p : run) {
      if (!now.isAfter(p.expiry())) {
        p.callback().onBundleSuccess();
      }
    }
  }
}
