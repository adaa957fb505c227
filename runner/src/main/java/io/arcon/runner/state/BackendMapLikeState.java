package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.ReadableState;

/**
 * Common part of MapState and MultimapState: one row per map key, key {@code address + 0x01 +
 * keyCoder(k)}, so the map's keys are a prefix scan and clearing it is a prefix delete. Map keys
 * are equal when their encodings are equal. Subclasses decide what a row holds (one stamped value,
 * or a list of them).
 */
abstract class BackendMapLikeState<K, V> extends BackendState {
  final Coder<K> keyCoder;
  final Coder<V> valueCoder;
  final byte[] prefix;

  BackendMapLikeState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<K> keyCoder,
      Coder<V> valueCoder) {
    super(internals, table, address, history);
    this.keyCoder = keyCoder;
    this.valueCoder = valueCoder;
    this.prefix = elementPrefix(address);
  }

  final byte[] rowKey(K key) {
    return coding().keyWithElement(prefix, keyCoder, key);
  }

  /** Turns one row into results (none, one or several). */
  @FunctionalInterface
  interface RowReader<R> {
    void read(StateEntry row, List<R> results);
  }

  /**
   * What {@code reader} makes of every row of the map, in key order; reads when {@code read()} is
   * called, into a copy that later writes do not change.
   */
  final <R> ReadableState<Iterable<R>> readRows(RowReader<R> reader) {
    return new DeferredRead<>(
        () -> {
          List<R> results = new ArrayList<>();
          try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
            while (it.hasNext()) {
              reader.read(it.next(), results);
            }
          }
          return results;
        });
  }

  /** The map key of a row. */
  final K keyOf(StateEntry row) {
    return StateCoding.decode(keyCoder, row.key(), prefix.length);
  }

  public final ReadableState<Iterable<K>> keys() {
    return readRows((row, keys) -> keys.add(keyOf(row)));
  }

  public final void remove(K key) {
    byte[] rowKey = rowKey(key);
    table.delete(rowKey);
    if (history != null) {
      history.delete(rowKey, address.length);
    }
  }

  public final ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> !anyWithPrefix(table, prefix));
  }

  public final void clear() {
    deleteAllRows();
  }
}
