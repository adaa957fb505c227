package io.arcon.runtime.job;

import com.typesafe.config.ConfigUtil;
import io.arcon.runtime.dispatch.NodeThreadPools;
import io.arcon.runtime.dispatch.StickyExecutorConfigurator;

/**
 * The threads that run a job's node actors ({@code --pinNodes}, {@code --nodeThreads}).
 *
 * <p>Pinned (the default): a {@link io.arcon.runtime.dispatch.StickyExecutor}, one queue per
 * thread, each node instance on the same thread every time, unless its thread has been stuck in
 * another node's work for {@link #STEAL_AFTER_MICROS} while a thread idles. A node's state, timers
 * and buffers then stay in one core's caches: with the work-stealing pool a node moved between
 * threads from message to message, and on 2 cores a per-element stateful job ran at about three
 * quarters of its pinned speed (benchmarks/STATE-SPEED.md). When DoFns block on every thread at
 * once, spare threads take the waiting nodes. Shared ({@code pinned} false) keeps Pekko's
 * work-stealing fork-join pool (at least 8 threads).
 *
 * @param pinned whether each node instance keeps its thread
 * @param threads threads of the pool; 0 for the default: one per available processor when pinned,
 *     Pekko's default fork-join sizing (at least 8) when shared
 */
public record NodeThreads(boolean pinned, int threads) {
  /** The Pekko dispatcher the node actors run on. */
  public static final String DISPATCHER = "arcon.node-dispatcher";

  /**
   * How long a thread may run one node's work before an idle thread takes the nodes waiting behind
   * it: far above a message's work (well under a millisecond), far below what a blocked DoFn waits.
   */
  static final long STEAL_AFTER_MICROS = 2_000;

  /** Pinned, one thread per available processor. */
  public static final NodeThreads DEFAULT = new NodeThreads(true, 0);

  public NodeThreads {
    if (threads < 0) {
      throw new IllegalArgumentException(
          "--nodeThreads must be 0 (one per available processor) or more, got " + threads);
    }
  }

  /**
   * The node dispatcher's settings. Pinned, the node instances get their threads in turn, in the
   * order the executor creates them, so with as many threads as the job's parallelism each thread
   * runs one instance of every vertex.
   *
   * @param poolId when pinned, the id under which {@link NodeThreadPools} keeps the executor; or
   *     null
   */
  String dispatcherConfig(String poolId) {
    if (!pinned) {
      String sizing =
          threads == 0
              ? ""
              : String.format(
                  ", fork-join-executor { parallelism-min = %d, parallelism-max = %d }",
                  threads, threads);
      return DISPATCHER
          + " { type = Dispatcher, executor = fork-join-executor, throughput = 8"
          + sizing
          + " }";
    }
    int size = threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    return String.format(
        "%s { type = Dispatcher, executor = \"%s\", throughput = 8,"
            + " sticky-executor { threads = %d, steal-after = %dus%s } }",
        DISPATCHER,
        StickyExecutorConfigurator.class.getName(),
        size,
        STEAL_AFTER_MICROS,
        poolId == null ? "" : ", pool-id = " + ConfigUtil.quoteString(poolId));
  }
}
