package io.arcon.runner.operators;

import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;

/**
 * Passes every element of every input port to output 0: Flatten, and the place where a keyed edge
 * is unwrapped into a chain.
 */
public final class ForwardOperator implements Operator {
  private Output output;

  @Override
  public void open(OperatorContext context) {
    this.output = context.output();
  }

  @Override
  public void processElement(int port, Object element) {
    output.emit(0, element);
  }
}
