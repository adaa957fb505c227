package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.ReadableStates;
import org.apache.beam.sdk.state.SetState;

/**
 * SetState: one row per element, key {@code address + 0x01 + coder(element)}, value {@code
 * [updated_at]}. Elements are equal when their encodings are equal (Beam requires a deterministic
 * coder for set elements).
 */
final class BackendSetState<T> extends BackendState implements SetState<T> {
  private final Coder<T> coder;
  private final byte[] prefix;

  BackendSetState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<T> coder) {
    super(internals, table, address, history);
    this.coder = coder;
    this.prefix = elementPrefix(address);
  }

  private byte[] rowKey(T element) {
    return coding().keyWithElement(prefix, coder, element);
  }

  @Override
  public void add(T value) {
    put(rowKey(value));
  }

  private void put(byte[] rowKey) {
    byte[] stored = coding().stampOnly(now());
    table.put(rowKey, stored);
    if (history != null) {
      history.put(rowKey, address.length, stored);
    }
  }

  /** Answers for the moment of the call, as runners-core's in-memory set does. */
  @Override
  public ReadableState<Boolean> contains(T t) {
    return ReadableStates.immediate(table.get(rowKey(t)) != null);
  }

  @Override
  public ReadableState<Boolean> addIfAbsent(T t) {
    byte[] key = rowKey(t);
    boolean absent = table.get(key) == null;
    if (absent) {
      put(key);
    }
    return ReadableStates.immediate(absent);
  }

  @Override
  public void remove(T t) {
    byte[] rowKey = rowKey(t);
    table.delete(rowKey);
    if (history != null) {
      history.delete(rowKey, address.length);
    }
  }

  @Override
  public Iterable<T> read() {
    List<T> result = new ArrayList<>();
    try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
      while (it.hasNext()) {
        result.add(StateCoding.decode(coder, it.next().key(), prefix.length));
      }
    }
    return result;
  }

  @Override
  public ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> !anyWithPrefix(table, prefix));
  }

  @Override
  public SetState<T> readLater() {
    return this;
  }

  @Override
  public void clear() {
    deleteAllRows();
  }
}
