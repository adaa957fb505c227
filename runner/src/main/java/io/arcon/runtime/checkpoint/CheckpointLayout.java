package io.arcon.runtime.checkpoint;

import io.arcon.runtime.graph.JobGraph;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.graph.Vertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The shape of the job graph a checkpoint was taken from: per vertex its id, name, parallelism and
 * operator names in chain order. A restore maps state by operator name (Beam's unique transform
 * full names), because vertex ids are only the translation order of one process.
 *
 * @param jobName the job's name as given (not sanitized)
 * @param vertices the vertices, each with a distinct id; operator names are unique across all
 */
public record CheckpointLayout(String jobName, List<VertexLayout> vertices) {

  /** One vertex: an operator chain run as {@code parallelism} node instances. */
  public record VertexLayout(int id, String name, int parallelism, List<String> operators) {
    public VertexLayout {
      Objects.requireNonNull(name, "vertex name");
      if (id < 0) {
        throw new IllegalArgumentException("Vertex id must be >= 0, got " + id);
      }
      if (parallelism < 1) {
        throw new IllegalArgumentException(
            "Vertex '" + name + "' has parallelism " + parallelism + "; it must be >= 1");
      }
      operators = List.copyOf(operators);
      if (operators.isEmpty()) {
        throw new IllegalArgumentException("Vertex '" + name + "' has no operators");
      }
    }
  }

  /** Where an operator sits in the layout. */
  public record OperatorPosition(VertexLayout vertex, int operatorIndex) {
    public String operatorName() {
      return vertex.operators().get(operatorIndex);
    }
  }

  public CheckpointLayout {
    Objects.requireNonNull(jobName, "jobName");
    vertices = List.copyOf(vertices);
    Map<Integer, VertexLayout> byId = new HashMap<>();
    Map<String, OperatorPosition> byName = new HashMap<>();
    for (VertexLayout v : vertices) {
      if (byId.put(v.id(), v) != null) {
        throw new IllegalArgumentException("Vertex id " + v.id() + " appears twice in the layout");
      }
      for (int i = 0; i < v.operators().size(); i++) {
        OperatorPosition here = new OperatorPosition(v, i);
        OperatorPosition before = byName.put(v.operators().get(i), here);
        if (before != null) {
          // State is matched to the new pipeline by transform name, so two operators with one
          // name would make the restore ambiguous. Beam's full names are unique (it appends a
          // number to repeated names), so a duplicate means a translation bug, refused early.
          throw new IllegalArgumentException(
              "Transform name '"
                  + here.operatorName()
                  + "' is used by two operators (vertex '"
                  + before.vertex().name()
                  + "' operator "
                  + before.operatorIndex()
                  + " and vertex '"
                  + v.name()
                  + "' operator "
                  + i
                  + "): checkpoints map state by transform name, so every operator needs a"
                  + " unique name");
        }
      }
    }
  }

  /** The layout of {@code graph} for the job {@code jobName}. */
  public static CheckpointLayout of(String jobName, JobGraph graph) {
    List<VertexLayout> vertices = new ArrayList<>();
    for (Vertex v : graph.vertices()) {
      List<String> operators = new ArrayList<>();
      for (OperatorNode op : v.operators()) {
        operators.add(op.name());
      }
      vertices.add(new VertexLayout(v.id(), v.name(), v.parallelism(), operators));
    }
    return new CheckpointLayout(jobName, vertices);
  }

  /** The vertex with id {@code id}. */
  public Optional<VertexLayout> vertex(int id) {
    for (VertexLayout v : vertices) {
      if (v.id() == id) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }

  /** Where the operator named {@code operatorName} sits. */
  public Optional<OperatorPosition> operator(String operatorName) {
    for (VertexLayout v : vertices) {
      int index = v.operators().indexOf(operatorName);
      if (index >= 0) {
        return Optional.of(new OperatorPosition(v, index));
      }
    }
    return Optional.empty();
  }

  /**
   * True when the layout has vertex {@code vertexId} with at least {@code instance + 1} instances.
   */
  boolean contains(InstanceId id) {
    return vertex(id.vertexId()).map(v -> id.instance() < v.parallelism()).orElse(false);
  }
}
