package io.arcon.portability.execution;

import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * Wraps every element {@code v} as {@code KV(null, v)}, keeping its timestamp, windows and pane:
 * the input of the runner-side grouping that turns a triggered side input into panes.
 */
final class VoidKeying implements Operator {
  private Output output;

  @Override
  public void open(OperatorContext context) {
    this.output = context.output();
  }

  @Override
  public void processElement(int port, Object element) {
    WindowedValue<?> value = (WindowedValue<?>) element;
    output.emit(0, value.withValue(KV.of(null, value.getValue())));
  }
}
