package io.arcon.runtime.observe;

import io.arcon.runtime.dispatch.NodeThreadFigures;
import io.arcon.runtime.epoch.EpochListener;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The live figures of one job, for everything that shows a running job (web UI, {@code /metrics}):
 * a {@link NodeStats} per node instance, the attempts and the epochs. Created with the job graph
 * before the first node starts, and kept across restarts, so counts cover the whole run.
 */
public final class JobStats {
  private final String jobName;
  private final JobGraph graph;
  private final long startedAtMillis = System.currentTimeMillis();
  private final Map<Integer, NodeStats[]> nodes = new HashMap<>();
  private final AtomicInteger attempts = new AtomicInteger();
  private final Epochs epochs = new Epochs();

  // The node threads of the running attempt, and what earlier attempts' threads did.
  private Supplier<Optional<NodeThreadFigures>> nodeThreads = Optional::empty;
  private NodeThreadFigures earlierNodeThreads;

  public JobStats(String jobName, JobGraph graph) {
    this.jobName = jobName;
    this.graph = graph;
    for (Vertex v : graph.vertices()) {
      NodeStats[] instances = new NodeStats[v.parallelism()];
      for (int i = 0; i < instances.length; i++) {
        instances[i] = new NodeStats(v.id(), i);
      }
      nodes.put(v.id(), instances);
    }
  }

  public JobGraph graph() {
    return graph;
  }

  public long startedAtMillis() {
    return startedAtMillis;
  }

  /** The figures of instance {@code instance} of vertex {@code vertexId}. */
  public NodeStats node(int vertexId, int instance) {
    NodeStats[] instances = nodes.get(vertexId);
    if (instances == null || instance < 0 || instance >= instances.length) {
      throw new IllegalArgumentException(
          "No node instance " + instance + " of vertex " + vertexId + " in job " + jobName);
    }
    return instances[instance];
  }

  /** A reading of every node instance, by vertex (in graph order), then instance. */
  public List<NodeStats.Sample> sampleNodes() {
    List<NodeStats.Sample> samples = new ArrayList<>();
    for (Vertex v : graph.vertices()) {
      for (NodeStats node : nodes.get(v.id())) {
        samples.add(node.sample());
      }
    }
    return samples;
  }

  /** Attempt {@code attempt} (0 for the first run, then one per restart) starts. */
  public void attemptStarted(int attempt) {
    attempts.accumulateAndGet(attempt + 1, Math::max);
  }

  /** Attempts started so far (1 until the first restart). */
  public int attempts() {
    return attempts.get();
  }

  /**
   * An attempt's node threads start: {@code figures} reads them (empty while they are not pinned,
   * or not built yet). The previous attempt's counts carry over.
   */
  public synchronized void nodeThreadsStarted(Supplier<Optional<NodeThreadFigures>> figures) {
    Optional<NodeThreadFigures> last = nodeThreads.get();
    if (last.isPresent()) {
      earlierNodeThreads =
          earlierNodeThreads == null ? last.get() : last.get().after(earlierNodeThreads);
    }
    nodeThreads = figures;
  }

  /**
   * How the job's pinned node threads have run, over all attempts; empty when they never were
   * pinned ({@code --pinNodes=false}).
   */
  public synchronized Optional<NodeThreadFigures> sampleNodeThreads() {
    Optional<NodeThreadFigures> now = nodeThreads.get();
    if (earlierNodeThreads == null) {
      return now;
    }
    return Optional.of(
        now.map(f -> f.after(earlierNodeThreads)).orElse(earlierNodeThreads.stopped()));
  }

  /** Told of every epoch's end; forward the coordinator's events here. */
  public EpochListener epochListener() {
    return epochs;
  }

  public EpochSample sampleEpochs() {
    return epochs.sample();
  }

  /**
   * The epochs so far.
   *
   * @param completed epochs made durable
   * @param givenUp epochs given up
   * @param lastCompleted the newest durable epoch, 0 before the first
   * @param lastDurationMillis how long it took from trigger to commit
   * @param lastBytes the size of its files
   * @param lastCompletedAtMillis wall-clock time of its commit, 0 before the first
   * @param lastGivenUpReason why the newest given-up epoch was given up, empty if none was
   */
  public record EpochSample(
      long completed,
      long givenUp,
      long lastCompleted,
      long lastDurationMillis,
      long lastBytes,
      long lastCompletedAtMillis,
      String lastGivenUpReason) {}

  private static final class Epochs implements EpochListener {
    private EpochSample current = new EpochSample(0, 0, 0, 0, 0, 0, "");

    @Override
    public synchronized void epochCompleted(long epoch, long durationMillis, long bytes) {
      current =
          new EpochSample(
              current.completed() + 1,
              current.givenUp(),
              epoch,
              durationMillis,
              bytes,
              System.currentTimeMillis(),
              current.lastGivenUpReason());
    }

    @Override
    public synchronized void epochGivenUp(long epoch, String reason) {
      current =
          new EpochSample(
              current.completed(),
              current.givenUp() + 1,
              current.lastCompleted(),
              current.lastDurationMillis(),
              current.lastBytes(),
              current.lastCompletedAtMillis(),
              "epoch " + epoch + ": " + reason);
    }

    synchronized EpochSample sample() {
      return current;
    }
  }
}
