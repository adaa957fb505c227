package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.StateTable;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.ValueState;

/** ValueState: one row at the cell's address holding {@code [updated_at][value]}. */
final class BackendValueState<T> extends BackendState implements ValueState<T> {
  private final Coder<T> coder;
  private final StateTable.ValueDecoder<T> decoder;

  /**
   * @param decoder {@link StateCoding#stampedDecoder} of {@code coder}, made once per binding
   */
  BackendValueState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<T> coder,
      StateTable.ValueDecoder<T> decoder) {
    super(internals, table, address, history);
    this.coder = coder;
    this.decoder = decoder;
  }

  @Override
  public void write(T input) {
    if (input == null) {
      // Reading back null is exactly what a cleared cell gives, so store nothing.
      clear();
      return;
    }
    putStamped(address, coder, input);
  }

  @Override
  public T read() {
    return table.get(address, decoder);
  }

  @Override
  public ValueState<T> readLater() {
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
