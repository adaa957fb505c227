package io.arcon.runner.state;

import io.arcon.runner.state.history.ChainRecorder;
import io.arcon.state.StateTable;
import java.util.AbstractMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.ReadableStates;

/**
 * MapState: one row per map key (see {@link BackendMapLikeState}), value {@code
 * [updated_at][valueCoder(v)]}.
 *
 * <p>{@link #computeIfAbsent} and {@link #putIfAbsent} answer the previous value at the moment of
 * the call; every other read ({@link #get}, {@link #getOrDefault}, {@link #keys}, {@link #values},
 * {@link #entries}, {@link #isEmpty}) reads when {@code read()} is called, as runners-core's
 * in-memory map does.
 */
final class BackendMapState<K, V> extends BackendMapLikeState<K, V> implements MapState<K, V> {

  BackendMapState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      ChainRecorder history,
      Coder<K> keyCoder,
      Coder<V> valueCoder) {
    super(internals, table, address, history, keyCoder, valueCoder);
  }

  private V readRow(byte[] rowKey) {
    byte[] stored = table.get(rowKey);
    return stored == null ? null : StateCoding.decodeStamped(valueCoder, stored);
  }

  @Override
  public void put(K key, V value) {
    putStamped(rowKey(key), valueCoder, value);
  }

  /** Returns the previous value (null when absent, in which case the computed value is stored). */
  @Override
  public ReadableState<V> computeIfAbsent(K key, Function<? super K, ? extends V> mappingFunction) {
    byte[] rowKey = rowKey(key);
    V existing = readRow(rowKey);
    if (existing == null) {
      putStamped(rowKey, valueCoder, mappingFunction.apply(key));
    }
    return ReadableStates.immediate(existing);
  }

  @Override
  public ReadableState<V> get(K key) {
    byte[] rowKey = rowKey(key);
    return new DeferredRead<>(() -> readRow(rowKey));
  }

  @Override
  public ReadableState<V> getOrDefault(K key, V defaultValue) {
    byte[] rowKey = rowKey(key);
    return new DeferredRead<>(
        () -> {
          V value = readRow(rowKey);
          return value == null ? defaultValue : value;
        });
  }

  @Override
  public ReadableState<Iterable<V>> values() {
    return readRows(
        (row, values) -> values.add(StateCoding.decodeStamped(valueCoder, row.value())));
  }

  @Override
  public ReadableState<Iterable<Map.Entry<K, V>>> entries() {
    return readRows(
        (row, entries) ->
            entries.add(
                new AbstractMap.SimpleImmutableEntry<>(
                    keyOf(row), StateCoding.decodeStamped(valueCoder, row.value()))));
  }
}
