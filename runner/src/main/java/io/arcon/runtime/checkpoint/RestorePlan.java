package io.arcon.runtime.checkpoint;

import io.arcon.runtime.checkpoint.CheckpointLayout.OperatorPosition;
import io.arcon.runtime.checkpoint.CheckpointLayout.VertexLayout;
import io.arcon.runtime.epoch.JobRestore;
import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.KeyGroups;
import io.arcon.runtime.operator.OperatorRestore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Maps a completed checkpoint onto the job graph of the run resuming from it. Operators are matched
 * by transform name (Beam full names are unique within a pipeline; vertex ids are only the
 * translation order of one process), so the graph may be fused differently and run at another
 * parallelism; key groups redistribute keyed state.
 */
public final class RestorePlan implements JobRestore {
  private final CompletedCheckpoint checkpoint;
  private final CheckpointLayout current;

  private RestorePlan(CompletedCheckpoint checkpoint, CheckpointLayout current) {
    this.checkpoint = checkpoint;
    this.current = current;
  }

  /**
   * Plans restoring {@code checkpoint} into {@code graph}.
   *
   * @throws IllegalArgumentException naming the transform when a transform that saved state is
   *     missing from {@code graph}, when two operators share a name, or when a parallelism change
   *     goes beyond {@link KeyGroups#MAX_PARALLELISM}
   */
  public static RestorePlan of(CompletedCheckpoint checkpoint, JobGraph graph) {
    Objects.requireNonNull(checkpoint, "checkpoint");
    Objects.requireNonNull(graph, "graph");
    CheckpointLayout current = CheckpointLayout.of(checkpoint.layout().jobName(), graph);
    for (VertexLayout old : checkpoint.layout().vertices()) {
      for (int i = 0; i < old.operators().size(); i++) {
        if (!checkpoint.hasState(old.id(), i)) {
          continue; // a stateless transform may come and go
        }
        String name = old.operators().get(i);
        Optional<OperatorPosition> now = current.operator(name);
        if (now.isEmpty()) {
          throw new IllegalArgumentException(
              "Cannot restore "
                  + checkpoint.directory()
                  + ": the pipeline must be the same, but transform '"
                  + name
                  + "' with state in epoch "
                  + checkpoint.epoch()
                  + " is missing (renamed or removed). Run the pipeline that wrote the checkpoint,"
                  + " or start without --restoreFrom");
        }
        int before = old.parallelism();
        int after = now.get().vertex().parallelism();
        if (before != after && Math.max(before, after) > KeyGroups.MAX_PARALLELISM) {
          throw new IllegalArgumentException(
              "Cannot restore transform '"
                  + name
                  + "' from parallelism "
                  + before
                  + " to "
                  + after
                  + ": state moves between instances by key group, so a changed parallelism must"
                  + " stay <= "
                  + KeyGroups.MAX_PARALLELISM
                  + "; keep --parallelism="
                  + before);
        }
      }
    }
    return new RestorePlan(checkpoint, current);
  }

  public CompletedCheckpoint checkpoint() {
    return checkpoint;
  }

  /**
   * What operator {@code operatorIndex} of instance {@code instance} of vertex {@code vertexId}
   * (ids of the new graph) restores, or null when the transform is new or saved nothing.
   *
   * @param parallelism the vertex's parallelism in the new graph
   */
  @Override
  public long epoch() {
    return checkpoint.epoch();
  }

  @Override
  public OperatorRestore restoreFor(
      int vertexId, int operatorIndex, int instance, int parallelism) {
    VertexLayout vertex = currentVertex(vertexId, instance);
    if (parallelism != vertex.parallelism()) {
      throw new IllegalArgumentException(
          "Vertex '"
              + vertex.name()
              + "' has parallelism "
              + vertex.parallelism()
              + " in the job graph, not "
              + parallelism);
    }
    if (operatorIndex < 0 || operatorIndex >= vertex.operators().size()) {
      throw new IllegalArgumentException(
          "Vertex '" + vertex.name() + "' has no operator " + operatorIndex);
    }
    String name = vertex.operators().get(operatorIndex);
    Optional<OperatorPosition> old = checkpoint.layout().operator(name);
    if (old.isEmpty() || !checkpoint.hasState(old.get().vertex().id(), old.get().operatorIndex())) {
      return null;
    }
    VertexLayout oldVertex = old.get().vertex();
    List<Path> directories = new ArrayList<>();
    for (int i = 0; i < oldVertex.parallelism(); i++) {
      directories.add(checkpoint.operatorDirectory(oldVertex.id(), i, old.get().operatorIndex()));
    }
    return new CheckpointOperatorRestore(
        name, checkpoint.epoch(), directories, instance, parallelism);
  }

  /**
   * Whether instance {@code instance} of vertex {@code vertexId} (of the new graph) starts as
   * finished: the previous instances it continues had ended all their work. With an unchanged
   * parallelism that is the same instance; after a change, only when every previous instance had
   * finished (otherwise the finished ones contribute empty directories to the restore).
   */
  @Override
  public boolean startsFinished(int vertexId, int instance) {
    VertexLayout vertex = currentVertex(vertexId, instance);
    Set<VertexLayout> previous = new HashSet<>();
    for (String name : vertex.operators()) {
      // Operators new to the graph have no history; the chain's finished state comes from the
      // ones that ran before (a finished source must not read its input again).
      checkpoint.layout().operator(name).ifPresent(p -> previous.add(p.vertex()));
    }
    if (previous.isEmpty()) {
      return false;
    }
    Set<InstanceId> finished = checkpoint.finishedInstances();
    for (VertexLayout old : previous) {
      if (old.parallelism() == vertex.parallelism()) {
        if (!finished.contains(new InstanceId(old.id(), instance))) {
          return false;
        }
      } else {
        for (int i = 0; i < old.parallelism(); i++) {
          if (!finished.contains(new InstanceId(old.id(), i))) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private VertexLayout currentVertex(int vertexId, int instance) {
    VertexLayout vertex =
        current
            .vertex(vertexId)
            .orElseThrow(
                () -> new IllegalArgumentException("The job graph has no vertex " + vertexId));
    if (instance < 0 || instance >= vertex.parallelism()) {
      throw new IllegalArgumentException(
          "Vertex '"
              + vertex.name()
              + "' has "
              + vertex.parallelism()
              + " instances; there is no instance "
              + instance);
    }
    return vertex;
  }
}
