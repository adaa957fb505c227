package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.ReadableState;

/**
 * BagState: one list row at the cell's address, each element {@code [updated_at][value]} added with
 * {@link StateTable#append} (no read-modify-write per add).
 */
final class BackendBagState<T> extends BackendState implements BagState<T> {
  private final Coder<T> coder;

  BackendBagState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<T> coder) {
    super(internals, table, address, history);
    this.coder = coder;
  }

  @Override
  public void add(T value) {
    byte[] element = coding().stamped(now(), coder, value);
    table.append(address, element);
    if (history != null) {
      history.append(address, address.length, element);
    }
  }

  /** A snapshot of the bag at the time of the call; later adds do not change it. */
  @Override
  public Iterable<T> read() {
    List<byte[]> stored = table.getList(address);
    List<T> result = new ArrayList<>(stored.size());
    for (byte[] element : stored) {
      result.add(StateCoding.decodeStamped(coder, element));
    }
    return result;
  }

  @Override
  public ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> table.getList(address).isEmpty());
  }

  @Override
  public BagState<T> readLater() {
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
