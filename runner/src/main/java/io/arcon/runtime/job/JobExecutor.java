package io.arcon.runtime.job;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.arcon.runtime.dispatch.NodeThreadFigures;
import io.arcon.runtime.dispatch.NodeThreadPools;
import io.arcon.runtime.dispatch.StickyExecutor;
import io.arcon.runtime.epoch.EpochCoordinator;
import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import io.arcon.runtime.node.NodeActor;
import io.arcon.runtime.node.NodeSignal;
import io.arcon.runtime.observe.JobStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a {@link JobGraph} on a private Pekko actor system: one node actor per vertex instance,
 * created downstream-first so every node is handed the refs of its receivers.
 */
public final class JobExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(JobExecutor.class);

  private JobExecutor() {}

  public static JobMonitor start(String jobName, JobGraph graph, RuntimeConfig config) {
    return start(jobName, graph, config, null, new JobStats(jobName, graph));
  }

  /**
   * Starts the job; with {@code epochs} its coordinator starts triggering epochs once every node
   * exists, and stops when the job ends. The nodes report their figures to {@code stats}.
   */
  public static JobMonitor start(
      String jobName,
      JobGraph graph,
      RuntimeConfig config,
      EpochCoordinator epochs,
      JobStats stats) {
    int instances = 0;
    for (Vertex v : graph.vertices()) {
      instances += v.parallelism();
    }
    JobMonitor monitor = new JobMonitor(instances);
    String poolId = config.nodeThreads().pinned() ? NodeThreadPools.newId(jobName) : null;
    PinnedPool pool = poolId == null ? null : new PinnedPool(poolId);
    stats.nodeThreadsStarted(pool == null ? Optional::empty : pool);
    ActorSystem system =
        ActorSystem.create(actorSystemName(jobName), pekkoConfig(config.nodeThreads(), poolId));
    monitor.setShutdown(system.getWhenTerminated().toCompletableFuture());

    if (config.activity() != null) {
      // Before any node of this attempt exists: they count into the attempt's own messages.
      config.activity().newAttempt();
    }
    // Nodes read this map from their own threads while later vertices are still being added.
    Map<Integer, ActorRef[]> refs = new ConcurrentHashMap<>();
    SynchronizedTimeTracker syncTime =
        config.trackSynchronizedTime() ? new SynchronizedTimeTracker(graph, config.clock()) : null;
    NodeActor.Wiring wiring =
        new NodeActor.Wiring(
            refs, new StartGate(instances, NodeSignal.START), syncTime, epochs, stats);
    List<Vertex> order = topologicalOrder(graph);
    // Receivers first; the map is complete for a vertex's targets when it is created.
    for (int i = order.size() - 1; i >= 0; i--) {
      Vertex v = order.get(i);
      ActorRef[] instanceRefs = new ActorRef[v.parallelism()];
      refs.put(v.id(), instanceRefs);
      for (int p = 0; p < v.parallelism(); p++) {
        instanceRefs[p] =
            system.actorOf(
                NodeActor.props(v, p, config, monitor, wiring)
                    .withDispatcher(NodeThreads.DISPATCHER),
                "v" + v.id() + "-" + p);
      }
    }
    // Only now may the end of the job tear the actor system down: a node that failed while its
    // successors were still being created would otherwise abort their creation.
    if (epochs != null) {
      epochs.start(refs);
    }
    monitor.onTerminate(
        () -> {
          if (epochs != null) {
            epochs.stop();
          }
          // A finished job's nodes all returned; a cancelled or failed one's may be in user code.
          boolean nodesMayBeBusy = monitor.outcome().getNow(null) != JobMonitor.Outcome.DONE;
          Optional<StickyExecutor> threads =
              poolId == null || !nodesMayBeBusy ? Optional.empty() : NodeThreadPools.find(poolId);
          system.terminate();
          threads.ifPresent(t -> interruptIfStillBusy(jobName, system, t));
          if (pool != null) {
            pool.forget();
          }
        });
    return monitor;
  }

  /**
   * How long a node may go on in user code after its job ended before its thread is interrupted.
   */
  static final long STUCK_NODE_GRACE_MILLIS = 1_000;

  /**
   * Interrupts the node threads still in user code {@link #STUCK_NODE_GRACE_MILLIS} after the job
   * ended (cancelled, or failed elsewhere): the actor system ends only when they return, and the
   * job reports its cancel only then (a DoFn sleeping for minutes held a cancel for the attempt's
   * whole 30 s shutdown wait, and its thread for longer).
   */
  private static void interruptIfStillBusy(
      String jobName, ActorSystem system, StickyExecutor threads) {
    CompletableFuture.delayedExecutor(STUCK_NODE_GRACE_MILLIS, TimeUnit.MILLISECONDS)
        .execute(
            () -> {
              if (system.whenTerminated().isCompleted()) {
                return;
              }
              int interrupted = threads.interruptBusyThreads();
              if (interrupted > 0) {
                LOG.warn(
                    "{} node thread(s) of {} were still in user code {} ms after the job ended;"
                        + " interrupted them (a DoFn that sleeps or waits)",
                    interrupted,
                    jobName,
                    STUCK_NODE_GRACE_MILLIS);
              }
            });
  }

  /**
   * The figures of a job's pinned node threads, found once Pekko has built their executor, and kept
   * as they last were when the job ends: not the executor itself, whose mailboxes would keep the
   * ended job's nodes and state reachable from the web UI's list of jobs.
   */
  private static final class PinnedPool implements Supplier<Optional<NodeThreadFigures>> {
    private final String id;
    // Read at each scrape, set once when the job ends: a lock costs nothing here.
    private StickyExecutor executor;
    private NodeThreadFigures ended;

    PinnedPool(String id) {
      this.id = id;
    }

    @Override
    public synchronized Optional<NodeThreadFigures> get() {
      if (ended != null) {
        return Optional.of(ended);
      }
      if (executor == null) {
        executor = NodeThreadPools.find(id).orElse(null);
      }
      return executor == null ? Optional.empty() : Optional.of(executor.figures());
    }

    /** The job ended: keeps its last figures (no spare runs any more) and lets the executor go. */
    synchronized void forget() {
      NodeThreadPools.forget(id).ifPresent(e -> ended = e.figures().stopped());
      executor = null;
    }
  }

  private static String actorSystemName(String jobName) {
    String cleaned = jobName == null ? "" : jobName.replaceAll("[^A-Za-z0-9_-]", "-");
    if (cleaned.isEmpty() || !Character.isLetterOrDigit(cleaned.charAt(0))) {
      cleaned = "arcon" + cleaned;
    }
    return cleaned.length() > 60 ? cleaned.substring(0, 60) : cleaned;
  }

  /**
   * The runtime's Pekko settings, under the JVM's system properties (which override them): the node
   * actors run on their own dispatcher ({@link NodeThreads}); the default dispatcher, Pekko's
   * fork-join pool, runs everything else (the scheduler's tasks, the system's own actors).
   *
   * <p>The scheduler ticks every millisecond rather than Pekko's 10: a source that found nothing
   * looks again 1 ms later ({@code NodeTask}), and with 10 ms ticks that look came up to 10 ms
   * late, which was most of a streaming pipeline's latency (Nexmark Q0 at 50k events/s: p50 15 ms,
   * 4 ms with 1 ms ticks). The ticks cost an idle job about 4% of a core.
   */
  static Config pekkoConfig(NodeThreads nodeThreads, String poolId) {
    return ConfigFactory.systemProperties()
        .withFallback(
            ConfigFactory.parseString(
                String.join(
                    "\n",
                    nodeThreads.dispatcherConfig(poolId),
                    "pekko.loglevel = WARNING",
                    "pekko.stdout-loglevel = WARNING",
                    "pekko.log-dead-letters = off",
                    "pekko.log-dead-letters-during-shutdown = off",
                    "pekko.actor.default-dispatcher.throughput = 8",
                    "pekko.scheduler.tick-duration = 1ms",
                    "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off",
                    "pekko.jvm-shutdown-hooks = off",
                    "pekko.daemonic = on")))
        .withFallback(ConfigFactory.defaultReference(JobExecutor.class.getClassLoader()));
  }

  static List<Vertex> topologicalOrder(JobGraph graph) {
    Map<Vertex, Integer> indegree = new HashMap<>();
    for (Vertex v : graph.vertices()) {
      indegree.put(v, v.inputs().size());
    }
    ArrayDeque<Vertex> ready = new ArrayDeque<>();
    for (Vertex v : graph.vertices()) {
      if (indegree.get(v) == 0) {
        ready.add(v);
      }
    }
    List<Vertex> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      Vertex v = ready.poll();
      order.add(v);
      for (Edge e : v.outputs()) {
        if (indegree.merge(e.target(), -1, Integer::sum) == 0) {
          ready.add(e.target());
        }
      }
    }
    if (order.size() != graph.vertices().size()) {
      throw new IllegalStateException("The job graph has a cycle:\n" + graph.describe());
    }
    return order;
  }
}
