package io.arcon.runtime.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The physical plan: vertices (operator chains) and the edges between them. */
public final class JobGraph {
  private final List<Vertex> vertices = new ArrayList<>();
  private final List<Edge> edges = new ArrayList<>();

  public Vertex addVertex(String name, int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("Parallelism must be >= 1, got " + parallelism);
    }
    Vertex v = new Vertex(vertices.size(), name, parallelism);
    vertices.add(v);
    return v;
  }

  public Edge connect(
      Vertex source,
      OperatorNode sourceOperator,
      int sourceOutput,
      Vertex target,
      OperatorNode targetOperator,
      int targetPort,
      EdgeKind kind,
      KeyExtractor keyExtractor) {
    Edge e =
        new Edge(
            edges.size(),
            source,
            sourceOperator.index(),
            sourceOutput,
            target,
            targetOperator.index(),
            targetPort,
            kind,
            keyExtractor);
    edges.add(e);
    source.addOutput(e);
    target.addInput(e);
    sourceOperator.addEdgeTarget(sourceOutput, e);
    return e;
  }

  public List<Vertex> vertices() {
    return Collections.unmodifiableList(vertices);
  }

  public List<Edge> edges() {
    return Collections.unmodifiableList(edges);
  }

  /** A readable plan, one vertex per line, for logs and {@code explain}. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (Vertex v : vertices) {
      sb.append(v).append(": ");
      for (OperatorNode op : v.operators()) {
        sb.append(op.index() == 0 ? "" : " -> ").append(op.name());
      }
      sb.append('\n');
      for (Edge e : v.outputs()) {
        sb.append("    ").append(e).append('\n');
      }
    }
    return sb.toString();
  }
}
