package io.arcon.runner.state;

import io.arcon.state.CloseableIterator;
import io.arcon.state.StateEntry;
import io.arcon.state.StateTable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.state.MultimapState;
import org.apache.beam.sdk.state.ReadableState;

/**
 * MultimapState: one list row per map key, key {@code address + 0x01 + keyCoder(k)}, elements
 * {@code [updated_at][valueCoder(v)]} added with {@link StateTable#append}. Every read method
 * returns a view that reads when {@code read()} is called and copies, so later writes do not change
 * an iterable already returned.
 */
final class BackendMultimapState<K, V> extends BackendState implements MultimapState<K, V> {
  private final Coder<K> keyCoder;
  private final Coder<V> valueCoder;
  private final byte[] prefix;

  BackendMultimapState(
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

  private List<V> decodeValues(List<byte[]> stored) {
    List<V> result = new ArrayList<>(stored.size());
    for (byte[] element : stored) {
      result.add(StateCoding.decodeStamped(valueCoder, element));
    }
    return result;
  }

  @Override
  public void put(K key, V value) {
    table.append(rowKey(key), coding().stamped(now(), valueCoder, value));
  }

  @Override
  public ReadableState<Iterable<V>> get(K key) {
    byte[] rowKey = rowKey(key);
    return new DeferredRead<>(() -> decodeValues(table.getList(rowKey)));
  }

  @Override
  public void remove(K key) {
    table.delete(rowKey(key));
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
  public ReadableState<Iterable<Map.Entry<K, V>>> entries() {
    return new DeferredRead<>(
        () -> {
          List<Map.Entry<K, V>> result = new ArrayList<>();
          try (CloseableIterator<StateEntry> it = table.prefixScan(prefix)) {
            while (it.hasNext()) {
              StateEntry e = it.next();
              K key = StateCoding.decode(keyCoder, e.key(), prefix.length);
              for (byte[] element : e.elements()) {
                result.add(
                    new AbstractMap.SimpleImmutableEntry<>(
                        key, StateCoding.decodeStamped(valueCoder, element)));
              }
            }
          }
          return result;
        });
  }

  @Override
  public ReadableState<Boolean> containsKey(K key) {
    byte[] rowKey = rowKey(key);
    return new DeferredRead<>(() -> !table.getList(rowKey).isEmpty());
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
