package io.arcon.runner.state;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.MapState;
import org.apache.beam.sdk.state.ReadableState;
import org.apache.beam.sdk.state.ReadableStates;

/**
 * MapState: one row per map key, key {@code address + 0x01 + keyCoder(k)}, value {@code
 * [updated_at][valueCoder(v)]}. Map keys are equal when their encodings are equal.
 *
 * <p>{@link #computeIfAbsent} and {@link #putIfAbsent} answer the previous value at the moment of
 * the call; every other read ({@link #get}, {@link #getOrDefault}, {@link #keys}, {@link #values},
 * {@link #entries}, {@link #isEmpty}) reads when {@code read()} is called, as runners-core's
 * in-memory map does.
 */
final class BackendMapState<K, V> extends BackendState implements MapState<K, V> {
  private final Coder<K> keyCoder;
  private final Coder<V> valueCoder;
  private final byte[] prefix;

  BackendMapState(
      BackendStateInternals<?> internals,
      StateTable table,
      byte[] address,
      Coder<K> keyCoder,
      Coder<V> valueCoder) {
    super(internals, table, address);
    this.keyCoder = keyCoder;
    this.valueCoder = valueCoder;
    this.prefix = elementPrefix(address);
  }

  private byte[] rowKey(K key) {
    return coding().keyWithElement(prefix, keyCoder, key);
  }

  private V readRow(byte[] rowKey) {
    byte[] stored = table.get(rowKey);
    return stored == null ? null : StateCoding.decodeStamped(valueCoder, stored);
  }

  @Override
  public void put(K key, V value) {
    table.put(rowKey(key), coding().stamped(now(), valueCoder, value));
  }

  /** Returns the previous value (null when absent, in which case the computed value is stored). */
  @Override
  public ReadableState<V> computeIfAbsent(K key, Function<? super K, ? extends V> mappingFunction) {
    byte[] rowKey = rowKey(key);
    V existing = readRow(rowKey);
    if (existing == null) {
      table.put(rowKey, coding().stamped(now(), valueCoder, mappingFunction.apply(key)));
    }
    return ReadableStates.immediate(existing);
  }

  @Override
  public void remove(K key) {
    table.delete(rowKey(key));
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
  public ReadableState<Iterable<K>> keys() {
    return new DeferredRead<>(
        () -> {
          List<K> result = new ArrayList<>();
          try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
            while (it.hasNext()) {
              result.add(StateCoding.decode(keyCoder, it.next().key(), prefix.length));
            }
          }
          return result;
        });
  }

  @Override
  public ReadableState<Iterable<V>> values() {
    return new DeferredRead<>(
        () -> {
          List<V> result = new ArrayList<>();
          try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
            while (it.hasNext()) {
              result.add(StateCoding.decodeStamped(valueCoder, it.next().value()));
            }
          }
          return result;
        });
  }

  @Override
  public ReadableState<Iterable<Map.Entry<K, V>>> entries() {
    return new DeferredRead<>(
        () -> {
          List<Map.Entry<K, V>> result = new ArrayList<>();
          try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
            while (it.hasNext()) {
              StateEntry e = it.next();
              result.add(
                  new AbstractMap.SimpleImmutableEntry<>(
                      StateCoding.decode(keyCoder, e.key(), prefix.length),
                      StateCoding.decodeStamped(valueCoder, e.value())));
            }
          }
          return result;
        });
  }

  @Override
  public ReadableState<Boolean> isEmpty() {
    return new DeferredRead<>(() -> !anyWithPrefix(table, prefix));
  }

  @Override
  public void clear() {
    table.deletePrefix(address);
  }
}
