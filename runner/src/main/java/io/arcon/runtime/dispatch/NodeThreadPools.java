package io.arcon.runtime.dispatch;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link StickyExecutor}s of running jobs, by the pool id their dispatcher settings name
 * ({@code sticky-executor.pool-id}). Pekko builds a dispatcher's executor itself, from settings,
 * when the first actor runs on it; this is how the job that asked for it finds it again.
 */
public final class NodeThreadPools {
  private static final Map<String, StickyExecutor> POOLS = new ConcurrentHashMap<>();

  private NodeThreadPools() {}

  /** A new pool id for {@code jobName}'s dispatcher settings. */
  public static String newId(String jobName) {
    return jobName + "-" + UUID.randomUUID();
  }

  /** Called by {@link StickyExecutorConfigurator} for each executor it builds. */
  static void built(String poolId, StickyExecutor executor) {
    POOLS.put(poolId, executor);
  }

  /** The executor built for {@code poolId}, once Pekko has built it. */
  public static Optional<StickyExecutor> find(String poolId) {
    return Optional.ofNullable(POOLS.get(poolId));
  }

  /** Forgets {@code poolId} (its job ended); returns its executor, if one was built. */
  public static Optional<StickyExecutor> forget(String poolId) {
    return Optional.ofNullable(POOLS.remove(poolId));
  }
}
