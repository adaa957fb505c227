package io.arcon.portability.execution;

import io.arcon.runtime.operator.Operator;
import io.arcon.runtime.operator.OperatorContext;
import io.arcon.runtime.operator.Output;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.WindowedValue;

/**
 * Re-encodes elements from one PCollection's coder to another's, for a runner-executed Flatten
 * whose input and output have different coders. The runner holds elements in its wire form (unknown
 * coders as bytes), which is the SDK's encoding, so an element goes: runner form of the input → its
 * bytes → the SDK's object (input's SDK wire coder) → the output's bytes (output's SDK wire coder)
 * → the runner form of the output.
 */
final class CoderTranscoding implements Operator {
  /** The four coders of one input → output conversion. */
  record Coders(
      Coder<WindowedValue<?>> inputRunner,
      Coder<WindowedValue<?>> inputSdk,
      Coder<WindowedValue<?>> outputSdk,
      Coder<WindowedValue<?>> outputRunner) {}

  private final Coders coders;
  private Output output;

  CoderTranscoding(Coders coders) {
    this.coders = coders;
  }

  @Override
  public void open(OperatorContext context) {
    this.output = context.output();
  }

  @Override
  public void processElement(int port, Object element) throws Exception {
    WindowedValue<?> sdkValue =
        CoderUtils.decodeFromByteArray(
            coders.inputSdk(),
            CoderUtils.encodeToByteArray(coders.inputRunner(), (WindowedValue<?>) element));
    output.emit(
        0,
        CoderUtils.decodeFromByteArray(
            coders.outputRunner(), CoderUtils.encodeToByteArray(coders.outputSdk(), sdkValue)));
  }
}
