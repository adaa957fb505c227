package io.arcon.state.snapshot;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The threads that finish asynchronous snapshots (copying, checksumming, writing manifests) off the
 * threads that own the backends. Daemon threads: a snapshot still running when the JVM exits is
 * incomplete (it has no manifest) and is never restored.
 */
public final class SnapshotThreads {
  private static final AtomicInteger COUNT = new AtomicInteger();

  /** Cached: snapshot parts are file I/O, not CPU work, and each one blocks a thread. */
  private static final ExecutorService POOL =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "arcon-snapshot-" + COUNT.incrementAndGet());
            t.setDaemon(true);
            return t;
          });

  private SnapshotThreads() {}

  /** Runs {@code part} on a snapshot thread. */
  public static <T> CompletableFuture<T> supply(Supplier<T> part) {
    return CompletableFuture.supplyAsync(part, POOL);
  }
}
