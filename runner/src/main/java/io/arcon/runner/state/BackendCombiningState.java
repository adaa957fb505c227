package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.StateTable;
import java.util.Arrays;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.transforms.Combine.CombineFn;

/**
 * CombiningState: one row at the cell's address holding {@code [updated_at][accumCoder(accum)]}. An
 * absent row is the empty state; its accumulator is {@code createAccumulator()}. (A combine fn with
 * context is bound to its context by {@link BackendStateInternals} before it gets here.)
 */
final class BackendCombiningState<InputT, AccumT, OutputT> extends BackendState
    implements CombiningState<InputT, AccumT, OutputT> {
  private final Coder<AccumT> accumCoder;
  private final CombineFn<InputT, AccumT, OutputT> combineFn;

  BackendCombiningState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<AccumT> accumCoder,
      CombineFn<InputT, AccumT, OutputT> combineFn) {
    super(internals, table, address, history);
    this.accumCoder = accumCoder;
    this.combineFn = combineFn;
  }

  @Override
  public AccumT getAccum() {
    byte[] stored = table.get(address);
    return stored == null
        ? combineFn.createAccumulator()
        : StateCoding.decodeStamped(accumCoder, stored);
  }

  @Override
  public void add(InputT value) {
    putStamped(address, accumCoder, combineFn.addInput(getAccum(), value));
  }

  @Override
  public void addAccum(AccumT accum) {
    putStamped(address, accumCoder, combineFn.mergeAccumulators(Arrays.asList(getAccum(), accum)));
  }

  @Override
  public AccumT mergeAccumulators(Iterable<AccumT> accumulators) {
    return combineFn.mergeAccumulators(accumulators);
  }

  @Override
  public OutputT read() {
    return combineFn.extractOutput(getAccum());
  }

  @Override
  public ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> table.get(address) == null);
  }

  @Override
  public CombiningState<InputT, AccumT, OutputT> readLater() {
    return this;
  }

  @Override
  public void clear() {
    table.delete(address);
    if (history != null) {
      history.delete(address, address.length);
    }
  }
}
