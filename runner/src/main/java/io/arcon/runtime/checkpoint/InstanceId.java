package io.arcon.runtime.checkpoint;

/**
 * One parallel instance of a vertex: the node actor {@code instance} of vertex {@code vertexId}.
 */
public record InstanceId(int vertexId, int instance) {
  public InstanceId {
    if (vertexId < 0 || instance < 0) {
      throw new IllegalArgumentException(
          "Vertex id and instance index must be >= 0, got vertex "
              + vertexId
              + " instance "
              + instance);
    }
  }

  @Override
  public String toString() {
    return vertexId + "/" + instance;
  }
}
