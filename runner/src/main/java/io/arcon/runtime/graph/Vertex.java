package io.arcon.runtime.graph;

import io.arcon.runtime.operator.Operator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * A chain of fused operators that runs as one node actor per parallel instance. Operators are kept
 * in topological order: an operator only feeds operators with a larger index.
 */
public final class Vertex {
  private final int id;
  private final String name;
  private final int parallelism;
  private final List<OperatorNode> operators = new ArrayList<>();
  private final List<Edge> inputs = new ArrayList<>();
  private final List<Edge> outputs = new ArrayList<>();

  Vertex(int id, String name, int parallelism) {
    this.id = id;
    this.name = name;
    this.parallelism = parallelism;
  }

  public int id() {
    return id;
  }

  public String name() {
    return name;
  }

  public int parallelism() {
    return parallelism;
  }

  /** Appends an operator to the chain; returns its index within the vertex. */
  public OperatorNode addOperator(String operatorName, Supplier<? extends Operator> factory) {
    OperatorNode node = new OperatorNode(operators.size(), operatorName, factory);
    operators.add(node);
    return node;
  }

  /**
   * Routes output {@code output} of operator {@code from} to {@code port} of operator {@code to}.
   */
  public void connect(OperatorNode from, int output, OperatorNode to, int port) {
    if (to.index() <= from.index()) {
      throw new IllegalArgumentException("Chain operators must be connected in topological order");
    }
    from.addChainTarget(output, new OperatorNode.ChainTarget(to.index(), port));
  }

  public List<OperatorNode> operators() {
    return Collections.unmodifiableList(operators);
  }

  public List<Edge> inputs() {
    return Collections.unmodifiableList(inputs);
  }

  public List<Edge> outputs() {
    return Collections.unmodifiableList(outputs);
  }

  void addInput(Edge edge) {
    inputs.add(edge);
  }

  void addOutput(Edge edge) {
    outputs.add(edge);
  }

  @Override
  public String toString() {
    return name + "[" + parallelism + "]";
  }
}
