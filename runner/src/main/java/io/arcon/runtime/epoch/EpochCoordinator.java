package io.arcon.runtime.epoch;

import io.arcon.runtime.checkpoint.CheckpointLayout;
import io.arcon.runtime.checkpoint.CheckpointStore;
import io.arcon.runtime.checkpoint.CompletedCheckpoint;
import io.arcon.runtime.checkpoint.InstanceId;
import io.arcon.runtime.checkpoint.PendingCheckpoint;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.Vertex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the epochs of one job attempt (DESIGN §5): every {@code --checkpointingInterval} it
 * triggers the next epoch at the nodes without inputs, collects every node instance's
 * acknowledgement, commits the epoch's checkpoint (manifest last) and tells every node the epoch is
 * durable. One epoch is in flight at a time; an epoch that a node declines or that outlives the
 * timeout is given up and its files removed. Node instances that ended all their work count as
 * acknowledged, and are recorded as finished; those whose inputs ended while they still work
 * (pending splittable work, a TSS drain) are triggered directly, as no marker reaches them.
 *
 * <p>All bookkeeping runs on one coordinator thread; nodes only hand it events.
 */
public final class EpochCoordinator implements EpochParticipation {
  private static final Logger LOG = LoggerFactory.getLogger(EpochCoordinator.class);

  private final String jobName;
  private final JobGraph graph;
  private final CheckpointStore store;
  private final CheckpointLayout layout;
  private final long intervalMillis;
  private final long timeoutMillis;
  private final EpochListener listener;
  private final ScheduledExecutorService thread;

  /** Instances that ended their work; they take no part in later epochs. Coordinator thread. */
  private final Set<InstanceId> finished = new HashSet<>();

  /** Instances whose inputs ended while they still work: triggered directly, like sources. */
  private final Set<InstanceId> inputsEnded = new HashSet<>();

  private Map<Integer, ActorRef[]> nodes;

  /** The epoch in flight's checkpoint, for node threads asking for their directories. */
  private final Map<Long, PendingCheckpoint> pendingCheckpoints = new ConcurrentHashMap<>();

  private long lastEpoch;
  private long lastTriggerMillis;
  private InFlight inFlight;
  private volatile boolean stopped;

  /** The epoch in flight: who still has to acknowledge, and where it is written. */
  private static final class InFlight {
    final long epoch;
    final PendingCheckpoint checkpoint;
    final long startedAtMillis;
    final Set<InstanceId> awaiting;
    final Set<InstanceId> finishedBeforeCut = new HashSet<>();

    InFlight(long epoch, PendingCheckpoint checkpoint, long startedAtMillis, Set<InstanceId> all) {
      this.epoch = epoch;
      this.checkpoint = checkpoint;
      this.startedAtMillis = startedAtMillis;
      this.awaiting = all;
    }
  }

  /**
   * @param lastEpoch the newest committed epoch (0 for none): numbering goes on after it
   * @param listener told of every completed and given-up epoch (logs, metrics)
   */
  public EpochCoordinator(
      String jobName,
      JobGraph graph,
      CheckpointStore store,
      long lastEpoch,
      long intervalMillis,
      long timeoutMillis,
      EpochListener listener) {
    if (intervalMillis < 1) {
      throw new IllegalArgumentException("The checkpointing interval must be >= 1 ms");
    }
    this.jobName = jobName;
    this.graph = graph;
    this.store = store;
    this.layout = CheckpointLayout.of(jobName, graph);
    this.lastEpoch = lastEpoch;
    this.intervalMillis = intervalMillis;
    this.timeoutMillis = timeoutMillis;
    this.listener = listener;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "arcon-epochs-" + jobName);
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts triggering epochs at the job's nodes (every instance of every vertex, by vertex id). */
  public void start(Map<Integer, ActorRef[]> nodes) {
    thread.execute(() -> this.nodes = nodes);
    // Often enough that an epoch is given up within a quarter of its timeout after it expired.
    long period = Math.max(1, Math.min(intervalMillis, timeoutMillis) / 4);
    thread.scheduleWithFixedDelay(this::tick, intervalMillis, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Stops triggering; an epoch still in flight is given up (its files removed). Waits briefly for a
   * commit in progress, so the job's end never races a manifest being written.
   */
  public void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    thread.execute(
        () -> {
          if (inFlight != null) {
            giveUp(inFlight, "the job attempt ended");
          }
        });
    thread.shutdown();
    try {
      thread.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Path operatorDirectory(long epoch, int vertexId, int instance, int operatorIndex) {
    // Thread-safe in the store; the epoch's checkpoint is looked up without the coordinator thread.
    PendingCheckpoint checkpoint = pendingCheckpoints.get(epoch);
    if (checkpoint == null) {
      // Epochs are only ever asked for after their trigger: one that is gone was given up.
      throw new EpochGivenUpException(epoch, jobName);
    }
    try {
      return checkpoint.operatorDirectory(vertexId, instance, operatorIndex);
    } catch (IllegalStateException e) {
      if (checkpoint.isAborted()) {
        throw new EpochGivenUpException(epoch, jobName); // given up between lookup and write
      }
      throw e;
    }
  }

  @Override
  public boolean givenUp(long epoch) {
    // A node asks only about an epoch it was snapshotting, which cannot have completed without it.
    return !pendingCheckpoints.containsKey(epoch);
  }

  @Override
  public void acknowledged(long epoch, int vertexId, int instance) {
    submit(
        () -> {
          InFlight current = inFlight;
          if (current != null && current.epoch == epoch) {
            current.awaiting.remove(new InstanceId(vertexId, instance));
            completeIfAcknowledged(current);
          }
        });
  }

  @Override
  public void declined(long epoch, int vertexId, int instance, Throwable cause) {
    submit(
        () -> {
          InFlight current = inFlight;
          if (current != null && current.epoch == epoch) {
            LOG.warn(
                "Epoch {} of {}: instance {} of vertex {} could not finish its snapshot",
                epoch,
                jobName,
                instance,
                vertexId,
                cause);
            giveUp(current, "a snapshot failed: " + cause);
          }
        });
  }

  @Override
  public void inputsEnded(int vertexId, int instance) {
    submit(
        () -> {
          InstanceId id = new InstanceId(vertexId, instance);
          inputsEnded.add(id);
          InFlight current = inFlight;
          if (current != null && current.awaiting.contains(id)) {
            // Its upstream ended without the marker: nothing else will bring it this epoch.
            nodes.get(vertexId)[instance].tell(
                new EpochMessages.Trigger(current.epoch), ActorRef.noSender());
          }
        });
  }

  /** Node instance {@code instance} of vertex {@code vertexId} ended all its work. */
  public void nodeFinished(int vertexId, int instance) {
    submit(
        () -> {
          InstanceId id = new InstanceId(vertexId, instance);
          finished.add(id);
          InFlight current = inFlight;
          if (current != null && current.awaiting.remove(id)) {
            current.finishedBeforeCut.add(id);
            completeIfAcknowledged(current);
          }
        });
  }

  /** Instances as {@code vertex name[instance]}, for messages. */
  private String describe(Set<InstanceId> instances) {
    List<String> names = new ArrayList<>();
    for (Vertex v : graph.vertices()) {
      for (int i = 0; i < v.parallelism(); i++) {
        if (instances.contains(new InstanceId(v.id(), i))) {
          names.add(
              v.name()
                  + "["
                  + i
                  + "]"
                  + (inputsEnded.contains(new InstanceId(v.id(), i)) ? " (inputs ended)" : ""));
        }
      }
    }
    return names.toString();
  }

  private void submit(Runnable event) {
    if (!stopped) {
      try {
        thread.execute(event);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // Stopped meanwhile: the attempt ended, its epochs no longer matter.
      }
    }
  }

  private void tick() {
    try {
      if (nodes == null || stopped) {
        return;
      }
      long now = System.currentTimeMillis();
      if (inFlight != null) {
        if (now - inFlight.startedAtMillis > timeoutMillis) {
          giveUp(inFlight, "it took longer than the timeout of " + timeoutMillis + " ms");
        }
        return;
      }
      if (now - lastTriggerMillis >= intervalMillis) {
        trigger(now);
      }
    } catch (RuntimeException e) {
      LOG.warn("Epoch coordination of {} failed; the next epoch is tried later", jobName, e);
    }
  }

  private void trigger(long now) {
    Set<InstanceId> awaiting = new HashSet<>();
    for (Vertex v : graph.vertices()) {
      for (int i = 0; i < v.parallelism(); i++) {
        InstanceId id = new InstanceId(v.id(), i);
        if (!finished.contains(id)) {
          awaiting.add(id);
        }
      }
    }
    if (awaiting.isEmpty()) {
      return; // everything ended: nothing left to snapshot
    }
    long epoch = lastEpoch + 1;
    PendingCheckpoint checkpoint = store.begin(epoch);
    pendingCheckpoints.put(epoch, checkpoint);
    inFlight = new InFlight(epoch, checkpoint, now, awaiting);
    // Every epoch records every instance that has ended, not only those that end while it is in
    // flight: a restore from a later epoch would otherwise take a source that finished in an
    // earlier one for a new one and read its whole input again.
    inFlight.finishedBeforeCut.addAll(finished);
    lastTriggerMillis = now;
    lastEpoch = epoch;
    for (Vertex v : graph.vertices()) {
      ActorRef[] refs = nodes.get(v.id());
      for (int i = 0; i < v.parallelism(); i++) {
        InstanceId id = new InstanceId(v.id(), i);
        if (!finished.contains(id) && (v.inputs().isEmpty() || inputsEnded.contains(id))) {
          refs[i].tell(new EpochMessages.Trigger(epoch), ActorRef.noSender());
        }
      }
    }
  }

  private void completeIfAcknowledged(InFlight current) {
    if (!current.awaiting.isEmpty()) {
      return;
    }
    inFlight = null;
    pendingCheckpoints.remove(current.epoch);
    CompletedCheckpoint committed;
    try {
      committed =
          current.checkpoint.commit(layout, current.finishedBeforeCut, current.startedAtMillis);
    } catch (RuntimeException e) {
      LOG.warn("Epoch {} of {} could not be committed", current.epoch, jobName, e);
      current.checkpoint.abort();
      listener.epochGivenUp(current.epoch, e.toString());
      return;
    }
    long durationMillis = System.currentTimeMillis() - current.startedAtMillis;
    LOG.info(
        "Epoch {} of {} completed in {} ms: {} bytes in {} files at {}",
        current.epoch,
        jobName,
        durationMillis,
        committed.sizeBytes(),
        committed.fileCount(),
        committed.directory());
    listener.epochCompleted(current.epoch, durationMillis, committed.sizeBytes());
    EpochMessages.Completed done = new EpochMessages.Completed(current.epoch);
    for (Vertex v : graph.vertices()) {
      ActorRef[] refs = nodes.get(v.id());
      for (int i = 0; i < v.parallelism(); i++) {
        if (!finished.contains(new InstanceId(v.id(), i))) {
          refs[i].tell(done, ActorRef.noSender());
        }
      }
    }
  }

  private void giveUp(InFlight current, String reason) {
    inFlight = null;
    pendingCheckpoints.remove(current.epoch);
    current.checkpoint.abort();
    LOG.warn(
        "Epoch {} of {} was given up: {} (not acknowledged by {})",
        current.epoch,
        jobName,
        reason,
        describe(current.awaiting));
    listener.epochGivenUp(current.epoch, reason);
  }
}
