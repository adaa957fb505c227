package io.arcon.runner.operators;

import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.SourceOperator;
import org.apache.beam.sdk.values.WindowedValues;

/** Impulse: one empty byte array in the global window, emitted by instance 0 only. */
public final class ImpulseSource implements SourceOperator {
  private OperatorContext context;
  private boolean done;

  @Override
  public void open(OperatorContext context) {
    this.context = context;
    this.done = context.instanceIndex() != 0;
  }

  @Override
  public PollResult poll(int maxElements) {
    if (!done) {
      context.output().emit(0, WindowedValues.valueInGlobalWindow(new byte[0]));
      done = true;
    }
    return PollResult.DONE;
  }

  @Override
  public long currentWatermark() {
    return done ? Long.MAX_VALUE : Long.MIN_VALUE;
  }
}
