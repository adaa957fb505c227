package io.arcon.runtime.job;

/**
 * The threads that run a job's node actors ({@code --pinNodes}, {@code --nodeThreads}).
 *
 * <p>Pinned (the default): Pekko's affinity pool, one queue per thread, each node instance always
 * on the same thread. A node's state, timers and buffers then stay in one core's caches: with the
 * work-stealing pool a node moved between threads from message to message, so on 2 cores a
 * per-element stateful job ran at about three quarters of the speed it runs pinned
 * (STATE-SPEED.md). The price is that a node that blocks (a DoFn waiting on a remote call) holds up
 * the nodes pinned with it; shared ({@code pinned} false) keeps Pekko's work-stealing fork-join
 * pool, where other threads take over.
 *
 * @param pinned whether each node instance keeps its thread
 * @param threads threads of the pool; 0 for the default: one per available processor when pinned,
 *     Pekko's default fork-join sizing (at least 8) when shared
 */
public record NodeThreads(boolean pinned, int threads) {
  /** The Pekko dispatcher the node actors run on. */
  public static final String DISPATCHER = "arcon.node-dispatcher";

  /** Pinned, one thread per available processor. */
  public static final NodeThreads DEFAULT = new NodeThreads(true, 0);

  public NodeThreads {
    if (threads < 0) {
      throw new IllegalArgumentException(
          "--nodeThreads must be 0 (one per available processor) or more, got " + threads);
    }
  }

  /**
   * The dispatcher's settings for a job of {@code instances} node instances: every instance gets a
   * queue of its own thread in turn (the affinity pool's fair distribution, up to its threshold),
   * in the order the executor creates them, so with as many threads as the job's parallelism each
   * thread runs one instance of every vertex.
   */
  String dispatcherConfig(int instances) {
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
    // A mailbox sits in at most one queue at a time, so a queue never holds more than the job's
    // instances; the pool throws when a queue is full.
    int queueSize = Math.max(1024, Integer.highestOneBit(instances + 64) * 2);
    return String.format(
        "%s { type = Dispatcher, executor = affinity-pool-executor, throughput = 8,"
            + " affinity-pool-executor { parallelism-min = %d, parallelism-max = %d,"
            + " parallelism-factor = 1.0, task-queue-size = %d, idle-cpu-level = 1,"
            + " fair-work-distribution { threshold = %d } } }",
        DISPATCHER, size, size, queueSize, Math.max(128, instances + 64));
  }
}
