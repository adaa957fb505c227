package io.arcon.runner.translation;

import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.transforms.Combine;

/**
 * The post-shuffle half of a lifted combine: its inputs are the partial accumulators, which it
 * merges with the user's {@code mergeAccumulators}.
 */
final class AccumulatorMergingCombineFn<AccT, OutT> extends Combine.CombineFn<AccT, AccT, OutT> {
  private final Combine.CombineFn<?, AccT, OutT> fn;
  private final Coder<AccT> accumulatorCoder;

  AccumulatorMergingCombineFn(Combine.CombineFn<?, AccT, OutT> fn, Coder<AccT> accumulatorCoder) {
    this.fn = fn;
    this.accumulatorCoder = accumulatorCoder;
  }

  @Override
  public AccT createAccumulator() {
    return fn.createAccumulator();
  }

  @Override
  public AccT addInput(AccT accumulator, AccT input) {
    return fn.mergeAccumulators(List.of(accumulator, input));
  }

  @Override
  public AccT mergeAccumulators(Iterable<AccT> accumulators) {
    return fn.mergeAccumulators(accumulators);
  }

  @Override
  public OutT extractOutput(AccT accumulator) {
    return fn.extractOutput(accumulator);
  }

  @Override
  public AccT compact(AccT accumulator) {
    return fn.compact(accumulator);
  }

  @Override
  public Coder<AccT> getAccumulatorCoder(CoderRegistry registry, Coder<AccT> inputCoder) {
    return accumulatorCoder;
  }
}
