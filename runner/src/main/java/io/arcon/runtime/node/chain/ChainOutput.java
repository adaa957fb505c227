package io.arcon.runtime.node.chain;

import io.arcon.runtime.graph.Edge;
import io.arcon.runtime.graph.OperatorNode;
import io.arcon.runtime.node.output.EdgeOutputs;
import io.arcon.runtime.operator.Output;

/**
 * The {@link Output} of one chain operator: each output index feeds operators of the same chain
 * (direct calls, in the same thread) and edges leaving the node.
 */
final class ChainOutput implements Output {
  private final OperatorChain chain;
  private final EdgeOutputs edges;
  private final int[][] chainOperators;
  private final int[][] chainPorts;
  private final Edge[][] edgesByOutput;

  ChainOutput(OperatorChain chain, OperatorNode node, EdgeOutputs edges) {
    this.chain = chain;
    this.edges = edges;
    int outputs = node.outputCount();
    chainOperators = new int[outputs][];
    chainPorts = new int[outputs][];
    edgesByOutput = new Edge[outputs][];
    for (int o = 0; o < outputs; o++) {
      chainOperators[o] =
          node.chainTargets(o).stream().mapToInt(OperatorNode.ChainTarget::operatorIndex).toArray();
      chainPorts[o] =
          node.chainTargets(o).stream().mapToInt(OperatorNode.ChainTarget::port).toArray();
      edgesByOutput[o] = node.edgeTargets(o).toArray(new Edge[0]);
    }
  }

  @Override
  public void emit(int outputIndex, Object element) {
    if (outputIndex >= chainOperators.length) {
      return; // an output nobody consumes
    }
    int[] operators = chainOperators[outputIndex];
    int[] ports = chainPorts[outputIndex];
    try {
      for (int i = 0; i < operators.length; i++) {
        chain.deliver(operators[i], ports[i], element);
      }
      for (Edge e : edgesByOutput[outputIndex]) {
        edges.send(e, element);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new ChainException(e);
    }
  }
}
