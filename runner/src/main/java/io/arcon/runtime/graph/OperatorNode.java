package io.arcon.runtime.graph;

import io.arcon.runtime.operator.Operator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * An operator inside a vertex's chain. Its outputs fan out to operators of the same chain (direct
 * calls) and to edges leaving the vertex.
 */
public final class OperatorNode {
  /** An in-chain consumer of an output. */
  public record ChainTarget(int operatorIndex, int port) {}

  private final int index;
  private final String name;
  private final Supplier<? extends Operator> factory;
  private final List<List<ChainTarget>> chainTargets = new ArrayList<>();
  private final List<List<Edge>> edgeTargets = new ArrayList<>();

  OperatorNode(int index, String name, Supplier<? extends Operator> factory) {
    this.index = index;
    this.name = name;
    this.factory = factory;
  }

  public int index() {
    return index;
  }

  public String name() {
    return name;
  }

  public Operator create() {
    return factory.get();
  }

  public int outputCount() {
    return chainTargets.size();
  }

  public List<ChainTarget> chainTargets(int output) {
    return output < chainTargets.size() ? chainTargets.get(output) : List.of();
  }

  public List<Edge> edgeTargets(int output) {
    return output < edgeTargets.size() ? edgeTargets.get(output) : List.of();
  }

  private void ensureOutput(int output) {
    while (chainTargets.size() <= output) {
      chainTargets.add(new ArrayList<>());
      edgeTargets.add(new ArrayList<>());
    }
  }

  void addChainTarget(int output, ChainTarget target) {
    ensureOutput(output);
    chainTargets.get(output).add(target);
  }

  void addEdgeTarget(int output, Edge edge) {
    ensureOutput(output);
    edgeTargets.get(output).add(edge);
  }

  /** Declares that the operator has at least {@code count} outputs, even unconsumed ones. */
  public void declareOutputs(int count) {
    if (count > 0) {
      ensureOutput(count - 1);
    }
  }
}
